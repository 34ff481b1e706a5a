package dev.protomolt.identity;

import io.grpc.Metadata;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The token a caller presents to the gateway: the query string of a SigV4-presigned {@code
 * sts:GetCallerIdentity} GET, base64url-encoded, in the {@code authorization} metadata as {@code
 * Bearer protomolt-sts-v1.<query>}. It proves who signed it only to whoever forwards it to STS,
 * which the gateway does; it carries no claim the gateway takes on trust.
 *
 * <p>The request signs one more header, {@link #AUDIENCE_HEADER}, naming the gateway the token is
 * meant for (decision 1511). Its value is not in the token: the gateway adds its own audience when
 * it forwards the query, so STS's signature check fails for a token signed for another gateway,
 * and a token that signs no audience is refused before STS is asked.
 */
public final class CallerToken {

  /** The gRPC metadata key, as any gRPC client in any language can set it. */
  public static final Metadata.Key<String> METADATA_KEY =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

  /** What precedes the encoded query in the metadata value. */
  public static final String PREFIX = "Bearer protomolt-sts-v1.";

  /** The longest metadata value accepted: a presigned query with a session token fits easily. */
  public static final int MAX_LENGTH = 8192;

  /** The signed header naming the gateway a token is meant for. */
  public static final String AUDIENCE_HEADER = "x-protomolt-gateway-id";

  /**
   * The variable naming that gateway: the stack sets it on the gateway's task, clients (the module
   * SDK, the CLI) read it from their configuration, {@code protomolt env} prints the local one.
   */
  public static final String AUDIENCE_VARIABLE = "PROTOMOLT_GATEWAY_AUDIENCE";

  private static final Pattern AUDIENCE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:/@-]{0,127}");
  private static final Pattern SIGNED_HEADERS =
      Pattern.compile("(?:^|&)X-Amz-SignedHeaders=([^&]*)");

  private CallerToken() {}

  /** The audience of the environment named {@code environment}: its gateway's name. */
  public static String audienceOf(String environment) {
    return "protomolt-" + environment + "-gateway";
  }

  /**
   * {@code value} as an audience: 1 to 128 letters, digits and {@code . _ : / @ -}, starting with a
   * letter or digit, so it travels as a header value unchanged.
   *
   * @throws IllegalArgumentException naming {@code field} and the rule
   */
  public static String requireAudience(String field, String value) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(
          field
              + ": the gateway audience must be set (the gateway's name, e.g."
              + " protomolt-dev-gateway)");
    }
    String v = value.strip();
    if (!AUDIENCE.matcher(v).matches()) {
      throw new IllegalArgumentException(
          field
              + ": the gateway audience must be 1 to 128 letters, digits or '._:/@-', starting with"
              + " a letter or digit, got \""
              + v
              + "\"");
    }
    return v;
  }

  /** Whether the presigned {@code query} signs {@link #AUDIENCE_HEADER}. */
  public static boolean signsAudience(String query) {
    Matcher m = SIGNED_HEADERS.matcher(query);
    if (!m.find()) {
      return false;
    }
    String headers = URLDecoder.decode(m.group(1), StandardCharsets.US_ASCII);
    return List.of(headers.split(";")).contains(AUDIENCE_HEADER);
  }

  /** The metadata value for the presigned request {@code presigned}. */
  public static String encode(URI presigned) {
    String query = presigned.getRawQuery();
    if (query == null || query.isEmpty()) {
      throw new IllegalArgumentException("presigned: the URI has no query string: " + presigned);
    }
    return PREFIX
        + Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(query.getBytes(StandardCharsets.US_ASCII));
  }

  /**
   * The raw presigned query string inside a metadata value.
   *
   * @throws IllegalArgumentException naming the rule the value breaks
   */
  public static String decode(String metadataValue) {
    if (metadataValue == null || metadataValue.isEmpty()) {
      throw new IllegalArgumentException("authorization: no caller token was presented");
    }
    if (metadataValue.length() > MAX_LENGTH) {
      throw new IllegalArgumentException(
          "authorization: the caller token is longer than " + MAX_LENGTH + " characters");
    }
    if (!metadataValue.startsWith(PREFIX)) {
      throw new IllegalArgumentException(
          "authorization: must be '" + PREFIX + "<base64url presigned GetCallerIdentity query>'");
    }
    String query;
    try {
      query =
          new String(
              Base64.getUrlDecoder().decode(metadataValue.substring(PREFIX.length())),
              StandardCharsets.US_ASCII);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("authorization: the caller token is not base64url", e);
    }
    // Only a query string, never a URL: the gateway alone decides where the request goes.
    if (!query.matches("[A-Za-z0-9%._~=&+-]+")) {
      throw new IllegalArgumentException(
          "authorization: the caller token must be a percent-encoded query string");
    }
    if (!query.contains("Action=GetCallerIdentity")) {
      throw new IllegalArgumentException(
          "authorization: the caller token must presign Action=GetCallerIdentity");
    }
    return query;
  }
}
