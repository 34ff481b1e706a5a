package dev.protomolt.repository.s3;

import java.net.URI;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * How one set of credentials reaches object storage. This is the only place local and AWS differ:
 * a local store has an endpoint, path-style addressing and static keys; AWS has no endpoint,
 * virtual-host addressing and the default credential chain. No code anywhere asks which one it is.
 *
 * @param endpoint empty for AWS S3 itself
 */
public record ObjectStoreSettings(
    Optional<URI> endpoint, boolean pathStyle, AwsCredentialsProvider credentials) {

  public ObjectStoreSettings {
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(credentials, "credentials");
  }

  /** AWS S3 with the default credential chain (environment, profile, container or instance role). */
  public static ObjectStoreSettings awsDefault() {
    return new ObjectStoreSettings(
        Optional.empty(), false, DefaultCredentialsProvider.builder().build());
  }

  /** An S3-compatible endpoint reached with static keys, path-style. */
  public static ObjectStoreSettings staticKeys(URI endpoint, String accessKeyId, String secretKey) {
    return new ObjectStoreSettings(
        Optional.of(endpoint),
        true,
        StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKeyId, secretKey)));
  }

  /**
   * Reads one credentials reference from configuration values: {@code endpoint} (blank for AWS),
   * {@code path-style} (true/false) and optionally {@code access-key-id} + {@code secret-access-key};
   * without keys the default credential chain is used.
   */
  public static ObjectStoreSettings fromValues(
      String endpoint, String pathStyle, String accessKeyId, String secretKey) {
    Optional<URI> uri =
        endpoint == null || endpoint.isBlank()
            ? Optional.empty()
            : Optional.of(URI.create(endpoint.strip()));
    boolean path = pathStyle != null && Boolean.parseBoolean(pathStyle.strip());
    AwsCredentialsProvider provider =
        accessKeyId == null || accessKeyId.isBlank()
            ? DefaultCredentialsProvider.builder().build()
            : StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKeyId, secretKey));
    return new ObjectStoreSettings(uri, path, provider);
  }

  /**
   * As {@link #fromValues}, but what the reference leaves unset comes from the process: its
   * endpoint from {@code processEndpoint} (the SDK's {@code AWS_ENDPOINT_URL_S3}) and its keys from
   * {@code processCredentials} (the process's own keys, or the default chain), as a client built
   * with no settings of its own would. Path-style defaults to what {@code pathStyleFor} says of
   * the endpoint in use when the reference does not set it.
   */
  public static ObjectStoreSettings fromValues(
      String endpoint,
      String pathStyle,
      String accessKeyId,
      String secretKey,
      Optional<URI> processEndpoint,
      AwsCredentialsProvider processCredentials,
      java.util.function.Predicate<URI> pathStyleFor) {
    ObjectStoreSettings own = fromValues(endpoint, pathStyle, accessKeyId, secretKey);
    Optional<URI> uri = own.endpoint().isPresent() ? own.endpoint() : processEndpoint;
    boolean path =
        pathStyle != null && !pathStyle.isBlank()
            ? own.pathStyle()
            : uri.map(pathStyleFor::test).orElse(false);
    AwsCredentialsProvider provider =
        accessKeyId == null || accessKeyId.isBlank() ? processCredentials : own.credentials();
    return new ObjectStoreSettings(uri, path, provider);
  }
}
