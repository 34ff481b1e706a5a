package dev.protomolt.localstack.sts;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * A SigV4 query-string (presigned) request as STS receives it: its parameters, who says they
 * signed it, and the check that they did. The canonical request is rebuilt from what arrived (the
 * method, path, every query parameter but the signature, the signed headers' values) exactly as
 * the signer built it, so any change to any of those makes the signature differ.
 */
final class PresignedSignature {

  static final String ALGORITHM = SigV4.ALGORITHM;
  private static final DateTimeFormatter AMZ_DATE = SigV4.AMZ_DATE;

  /** A refusal, carrying the error code STS answers with. */
  static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;
    final String code;

    Refused(String code, String message) {
      super(message);
      this.code = code;
    }
  }

  private final String method;
  private final String path;
  private final Map<String, String> query;
  private final Function<String, String> header;

  /**
   * @param rawQuery the query string as received, still percent-encoded
   * @param header a received header's value by (case-insensitive) name, or null
   */
  PresignedSignature(String method, String path, String rawQuery, Function<String, String> header) {
    this.method = method;
    this.path = path == null || path.isEmpty() ? "/" : path;
    this.query = decode(rawQuery);
    this.header = header;
  }

  Map<String, String> query() {
    return query;
  }

  boolean isPresigned() {
    return query.containsKey("X-Amz-Signature") || query.containsKey("X-Amz-Credential");
  }

  /** The access key the request says it was signed with. */
  String accessKeyId() throws Refused {
    return credentialScope()[0];
  }

  /**
   * Checks the signature against {@code secret} and the validity window against {@code now}.
   *
   * @throws Refused with STS's code: {@code SignatureDoesNotMatch} for a wrong signature or an
   *     expired request, {@code IncompleteSignature} for a malformed one
   */
  void verify(String secret, Instant now) throws Refused {
    if (!ALGORITHM.equals(query.get("X-Amz-Algorithm"))) {
      throw new Refused(
          "IncompleteSignature", "X-Amz-Algorithm: only " + ALGORITHM + " is supported");
    }
    String[] scope = credentialScope();
    String amzDate = required("X-Amz-Date");
    String signedHeaders = required("X-Amz-SignedHeaders");
    String signature = required("X-Amz-Signature");
    Instant signedAt;
    long expires;
    try {
      signedAt = Instant.from(AMZ_DATE.parse(amzDate));
      expires = Long.parseLong(required("X-Amz-Expires"));
    } catch (DateTimeParseException | NumberFormatException e) {
      throw new Refused("IncompleteSignature", "X-Amz-Date or X-Amz-Expires is malformed");
    }
    if (expires < 1 || expires > Duration.ofDays(7).toSeconds()) {
      throw new Refused("IncompleteSignature", "X-Amz-Expires must be between 1 and 604800");
    }
    if (now.isAfter(signedAt.plusSeconds(expires))) {
      throw new Refused(
          "SignatureDoesNotMatch",
          "Signature expired: " + amzDate + " is now earlier than " + AMZ_DATE.format(now));
    }
    // AWS accepts a clock up to five minutes ahead of its own.
    if (signedAt.isAfter(now.plus(Duration.ofMinutes(5)))) {
      throw new Refused(
          "SignatureDoesNotMatch", "Signature not yet current: " + amzDate + " is in the future");
    }
    if (!amzDate.startsWith(scope[1])) {
      throw new Refused("SignatureDoesNotMatch", "X-Amz-Date does not match the credential date");
    }
    String canonicalHeaders = canonicalHeaders(signedHeaders);
    String scopeText = String.join("/", scope[1], scope[2], scope[3], scope[4]);
    // Presigning signers differ in the payload hash they put last; STS accepts both forms.
    for (String payloadHash : List.of("UNSIGNED-PAYLOAD", SigV4.sha256Hex(""))) {
      String canonicalRequest =
          String.join(
              "\n", method, path, canonicalQuery(), canonicalHeaders, signedHeaders, payloadHash);
      String toSign =
          String.join("\n", ALGORITHM, amzDate, scopeText, SigV4.sha256Hex(canonicalRequest));
      if (SigV4.sameSignature(
          SigV4.signature(secret, scope[1], scope[2], scope[3], toSign), signature)) {
        return;
      }
    }
    throw new Refused(
        "SignatureDoesNotMatch",
        "The request signature we calculated does not match the signature you provided. Check"
            + " your AWS Secret Access Key and signing method.");
  }

  /** {@code [accessKeyId, date, region, service, "aws4_request"]}. */
  private String[] credentialScope() throws Refused {
    String credential = required("X-Amz-Credential");
    String[] parts = credential.split("/");
    if (parts.length != 5 || !"aws4_request".equals(parts[4]) || parts[0].isEmpty()) {
      throw new Refused(
          "IncompleteSignature",
          "X-Amz-Credential must be <key>/<date>/<region>/<service>/aws4_request");
    }
    if (!"sts".equals(parts[3])) {
      throw new Refused(
          "SignatureDoesNotMatch",
          "Credential should be scoped to correct service: 'sts', not '" + parts[3] + "'");
    }
    return parts;
  }

  private String required(String name) throws Refused {
    String value = query.get(name);
    if (value == null || value.isEmpty()) {
      throw new Refused("IncompleteSignature", name + ": required in a presigned request");
    }
    return value;
  }

  private String canonicalQuery() {
    TreeMap<String, String> encoded = new TreeMap<>();
    query.forEach(
        (k, v) -> {
          if (!k.equals("X-Amz-Signature")) {
            encoded.put(uriEncode(k), uriEncode(v));
          }
        });
    List<String> pairs = new ArrayList<>();
    encoded.forEach((k, v) -> pairs.add(k + "=" + v));
    return String.join("&", pairs);
  }

  private String canonicalHeaders(String signedHeaders) throws Refused {
    StringBuilder out = new StringBuilder();
    for (String name : signedHeaders.split(";")) {
      String value = header.apply(name);
      if (value == null) {
        throw new Refused(
            "SignatureDoesNotMatch", "signed header '" + name + "' is missing from the request");
      }
      out.append(name.toLowerCase(Locale.ROOT))
          .append(':')
          .append(value.strip().replaceAll("\\s+", " "))
          .append('\n');
    }
    return out.toString();
  }

  private static Map<String, String> decode(String raw) {
    Map<String, String> params = new TreeMap<>();
    if (raw == null || raw.isEmpty()) {
      return params;
    }
    for (String pair : raw.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      // A literal '+' in a SigV4 query is always %2B, so decoding '+' as a space loses nothing.
      String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      String value =
          eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      params.put(key, value);
    }
    return params;
  }

  static String uriEncode(String value) {
    return SigV4.uriEncode(value);
  }
}
