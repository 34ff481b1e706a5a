package dev.protomolt.localstack.sts;

import com.sun.net.httpserver.HttpExchange;
import dev.protomolt.localstack.iam.IamPrincipal;
import dev.protomolt.localstack.iam.PrincipalRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Optional;
import java.util.UUID;

/**
 * STS's {@code GetCallerIdentity} as the local cloud answers it: a SigV4 presigned {@code GET
 * /?Action=GetCallerIdentity&Version=2011-06-15&X-Amz-...} signed with a key registered in the
 * local IAM ({@link PrincipalRegistry}) gets that principal's caller ARN; an unknown key, a wrong
 * signature or an expired request gets the XML error STS itself answers with. This is what the
 * gateway forwards a caller's token to, so it is the local proof of who a caller is.
 */
public final class LocalSts {

  private static final String NS = "https://sts.amazonaws.com/doc/2011-06-15/";

  private final PrincipalRegistry iam;
  private final Clock clock;

  public LocalSts(PrincipalRegistry iam, Clock clock) {
    this.iam = iam;
    this.clock = clock;
  }

  /** Whether {@code exchange} is an STS call (the Query protocol on the root path). */
  public static boolean handles(HttpExchange exchange) {
    String path = exchange.getRequestURI().getRawPath();
    return path == null || path.isEmpty() || path.equals("/");
  }

  /** Answers one request and closes the exchange. */
  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      Answer answer =
          answer(
              exchange.getRequestMethod(),
              exchange.getRequestURI().getRawPath(),
              exchange.getRequestURI().getRawQuery(),
              name -> exchange.getRequestHeaders().getFirst(name));
      byte[] body = answer.xml().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "text/xml");
      exchange.getResponseHeaders().set("x-amzn-RequestId", answer.requestId());
      exchange.sendResponseHeaders(answer.status(), body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  /** An HTTP status and the XML body STS would send. */
  record Answer(int status, String xml, String requestId) {}

  Answer answer(
      String method,
      String path,
      String rawQuery,
      java.util.function.Function<String, String> header) {
    String requestId = UUID.randomUUID().toString();
    PresignedSignature request = new PresignedSignature(method, path, rawQuery, header);
    if (!request.isPresigned()) {
      return error(
          403,
          "MissingAuthenticationToken",
          "Request is missing Authentication Token (the local STS accepts presigned GET"
              + " requests only)",
          requestId);
    }
    String action = request.query().get("Action");
    if (!"GetCallerIdentity".equals(action)) {
      return error(
          400,
          "InvalidAction",
          "Could not find operation " + action + " for version " + request.query().get("Version"),
          requestId);
    }
    try {
      String accessKeyId = request.accessKeyId();
      Optional<String> secret = iam.secretAccessKey(accessKeyId);
      Optional<IamPrincipal> principal = iam.principal(accessKeyId);
      if (secret.isEmpty() || principal.isEmpty()) {
        return error(
            403,
            "InvalidClientTokenId",
            "The security token included in the request is invalid.",
            requestId);
      }
      request.verify(secret.get(), clock.instant());
      return new Answer(200, success(principal.get(), accessKeyId, requestId), requestId);
    } catch (PresignedSignature.Refused e) {
      return error(
          e.code.equals("IncompleteSignature") ? 400 : 403, e.code, e.getMessage(), requestId);
    }
  }

  private String success(IamPrincipal principal, String accessKeyId, String requestId) {
    return "<GetCallerIdentityResponse xmlns=\""
        + NS
        + "\"><GetCallerIdentityResult><Arn>"
        + escape(principal.callerArn())
        + "</Arn><UserId>"
        + escape(accessKeyId + ":" + principal.name())
        + "</UserId><Account>"
        + iam.accountId()
        + "</Account></GetCallerIdentityResult><ResponseMetadata><RequestId>"
        + requestId
        + "</RequestId></ResponseMetadata></GetCallerIdentityResponse>";
  }

  private static Answer error(int status, String code, String message, String requestId) {
    return new Answer(
        status,
        "<ErrorResponse xmlns=\""
            + NS
            + "\"><Error><Type>Sender</Type><Code>"
            + code
            + "</Code><Message>"
            + escape(message)
            + "</Message></Error><RequestId>"
            + requestId
            + "</RequestId></ErrorResponse>",
        requestId);
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
