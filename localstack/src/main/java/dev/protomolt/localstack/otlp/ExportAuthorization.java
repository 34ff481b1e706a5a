package dev.protomolt.localstack.otlp;

import dev.protomolt.localstack.iam.AccessDecision;
import dev.protomolt.localstack.iam.AccessRequest;
import dev.protomolt.localstack.iam.IamPrincipal;
import dev.protomolt.localstack.iam.PrincipalRegistry;
import dev.protomolt.localstack.sts.SigV4;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * Who may export spans to the local collector, checked as X-Ray's OTLP endpoint checks it
 * (decision 1797): a SigV4 {@code Authorization} header scoped to service {@code xray}, its
 * signature recomputed over the method, path, signed headers and the body's SHA-256, then the
 * signer's role policies asked for {@code xray:PutTraceSegments} on {@code *}. As everywhere in the
 * local cloud, a key the registry does not know (the cloud's own, a test's) and an unsigned export
 * pass unless {@link PrincipalRegistry#strict()}: the sample modules and tools export unsigned.
 */
final class ExportAuthorization {

  private static final Logger LOG = Logger.getLogger(ExportAuthorization.class.getName());

  static final String SERVICE = "xray";
  static final String ACTION = "xray:PutTraceSegments";

  /** A refusal: the HTTP status and the error X-Ray would name. */
  record Refusal(int status, String code, String message) {}

  private final PrincipalRegistry iam;

  ExportAuthorization(PrincipalRegistry iam) {
    this.iam = Objects.requireNonNull(iam, "iam");
  }

  /**
   * @param action the IAM action the request is authorized as
   * @param header a received header's value by (case-insensitive) name, or null
   * @return empty when the export may be kept
   */
  Optional<Refusal> check(
      String action,
      String method,
      String path,
      Function<String, String> header,
      byte[] body,
      Instant now) {
    String authorization = header.apply("Authorization");
    if (authorization == null || authorization.isBlank()) {
      return iam.strict()
          ? Optional.of(
              new Refusal(
                  403,
                  "MissingAuthenticationTokenException",
                  "Authorization: required; sign the export with SigV4 for service '"
                      + SERVICE
                      + "'"))
          : Optional.empty();
    }
    if (!authorization.startsWith(SigV4.ALGORITHM + " ")) {
      return Optional.of(
          incomplete("Authorization: only " + SigV4.ALGORITHM + " signatures are accepted"));
    }
    Map<String, String> parts = new LinkedHashMap<>();
    for (String part : authorization.substring(SigV4.ALGORITHM.length() + 1).split(",")) {
      int eq = part.indexOf('=');
      if (eq > 0) {
        parts.put(part.substring(0, eq).strip(), part.substring(eq + 1).strip());
      }
    }
    String credential = parts.get("Credential");
    String signedHeaders = parts.get("SignedHeaders");
    String signature = parts.get("Signature");
    if (credential == null || signedHeaders == null || signature == null) {
      return Optional.of(
          incomplete("Authorization: Credential, SignedHeaders and Signature are all required"));
    }
    String[] scope = credential.split("/");
    if (scope.length != 5 || !"aws4_request".equals(scope[4]) || scope[0].isEmpty()) {
      return Optional.of(
          incomplete("Credential: must be <key>/<date>/<region>/<service>/aws4_request"));
    }
    if (!SERVICE.equals(scope[3])) {
      return Optional.of(
          new Refusal(
              403,
              "InvalidSignatureException",
              "Credential should be scoped to correct service: '"
                  + SERVICE
                  + "', not '"
                  + scope[3]
                  + "'"));
    }
    Optional<String> secret = iam.secretAccessKey(scope[0]);
    Optional<IamPrincipal> principal = iam.principal(scope[0]);
    if (secret.isEmpty() || principal.isEmpty()) {
      return iam.strict()
          ? Optional.of(
              new Refusal(
                  403,
                  "UnrecognizedClientException",
                  "The security token included in the request is invalid"))
          : Optional.empty();
    }
    String amzDate = header.apply("X-Amz-Date");
    if (amzDate == null) {
      return Optional.of(incomplete("X-Amz-Date: required in a signed request"));
    }
    Instant signedAt;
    try {
      signedAt = Instant.from(SigV4.AMZ_DATE.parse(amzDate));
    } catch (DateTimeParseException e) {
      return Optional.of(incomplete("X-Amz-Date: not yyyyMMdd'T'HHmmss'Z': " + amzDate));
    }
    // AWS allows fifteen minutes of skew either way for a header-signed request.
    if (Duration.between(signedAt, now).abs().compareTo(Duration.ofMinutes(15)) > 0) {
      return Optional.of(
          new Refusal(403, "InvalidSignatureException", "Signature expired: signed at " + amzDate));
    }
    String payloadHash = SigV4.sha256Hex(body);
    String declared = header.apply("X-Amz-Content-Sha256");
    if (declared != null && !declared.equalsIgnoreCase(payloadHash)) {
      return Optional.of(
          new Refusal(
              403,
              "InvalidSignatureException",
              "X-Amz-Content-Sha256: does not match the body's SHA-256"));
    }
    StringBuilder canonicalHeaders = new StringBuilder();
    for (String name : signedHeaders.split(";")) {
      String value = header.apply(name);
      if (value == null) {
        return Optional.of(
            new Refusal(
                403,
                "InvalidSignatureException",
                "signed header '" + name + "' is missing from the request"));
      }
      canonicalHeaders
          .append(name.toLowerCase(Locale.ROOT))
          .append(':')
          .append(value.strip().replaceAll("\\s+", " "))
          .append('\n');
    }
    String canonicalRequest =
        String.join("\n", method, path, "", canonicalHeaders, signedHeaders, payloadHash);
    String toSign =
        String.join(
            "\n",
            SigV4.ALGORITHM,
            amzDate,
            String.join("/", scope[1], scope[2], scope[3], scope[4]),
            SigV4.sha256Hex(canonicalRequest));
    if (!SigV4.sameSignature(
        SigV4.signature(secret.get(), scope[1], scope[2], scope[3], toSign), signature)) {
      return Optional.of(
          new Refusal(
              403,
              "InvalidSignatureException",
              "The request signature we calculated does not match the signature you provided."));
    }
    AccessDecision decision = principal.get().evaluate(AccessRequest.of(action, "*"));
    if (!decision.allowed()) {
      LOG.warning(
          () ->
              "denied " + action + " on * to " + principal.get().name() + ": " + decision.reason());
      return Optional.of(
          new Refusal(
              403,
              "AccessDeniedException",
              "User: "
                  + principal.get().callerArn()
                  + " is not authorized to perform: "
                  + action
                  + " on resource: *"));
    }
    return Optional.empty();
  }

  private static Refusal incomplete(String message) {
    return new Refusal(400, "IncompleteSignatureException", message);
  }
}
