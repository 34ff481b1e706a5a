package dev.protomolt.identity;

import io.grpc.Metadata;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The token a caller presents to the gateway: the query string of a SigV4-presigned {@code
 * sts:GetCallerIdentity} GET, base64url-encoded, in the {@code authorization} metadata as {@code
 * Bearer protomolt-sts-v1.<query>}. It proves who signed it only to whoever forwards it to STS,
 * which the gateway does; it carries no claim the gateway takes on trust.
 */
public final class CallerToken {

  /** The gRPC metadata key, as any gRPC client in any language can set it. */
  public static final Metadata.Key<String> METADATA_KEY =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

  /** What precedes the encoded query in the metadata value. */
  public static final String PREFIX = "Bearer protomolt-sts-v1.";

  /** The longest metadata value accepted: a presigned query with a session token fits easily. */
  public static final int MAX_LENGTH = 8192;

  private CallerToken() {}

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
