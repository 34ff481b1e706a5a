package dev.protomolt.repository.s3;

import dev.protomolt.core.store.Drive;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * One S3 client per (credentials reference, region), built on first use and kept for the life of
 * the container: building a client per call is the anti-pattern that costs a Lambda its latency.
 */
public final class S3Clients implements AutoCloseable {

  /** Part reads fan out on virtual threads; the pool must not be what serializes them. */
  private static final int MAX_CONNECTIONS = 128;

  private final Map<String, ObjectStoreSettings> settingsByCredentialsRef;
  private final List<ExecutionInterceptor> interceptors;
  private final Map<String, S3Client> clients = new ConcurrentHashMap<>();

  /**
   * @param settingsByCredentialsRef every credentials reference a drive may name
   * @param interceptors added to every client (metrics, tracing; tests count bytes with one)
   */
  public S3Clients(
      Map<String, ObjectStoreSettings> settingsByCredentialsRef,
      List<ExecutionInterceptor> interceptors) {
    this.settingsByCredentialsRef = Map.copyOf(settingsByCredentialsRef);
    this.interceptors = List.copyOf(interceptors);
  }

  /** The client that reaches {@code drive}'s bucket with the drive's own credentials. */
  public S3Client forDrive(Drive drive) {
    Objects.requireNonNull(drive, "drive");
    return clients.computeIfAbsent(clientKey(drive), key -> build(drive));
  }

  /** True when one client reaches both drives, so a copy between them can stay server-side. */
  public boolean shareClient(Drive a, Drive b) {
    return clientKey(a).equals(clientKey(b));
  }

  private static String clientKey(Drive drive) {
    return drive.credentialsRef() + "|" + drive.region();
  }

  private S3Client build(Drive drive) {
    ObjectStoreSettings settings = settingsByCredentialsRef.get(drive.credentialsRef());
    if (settings == null) {
      throw new IllegalStateException(
          "drive "
              + drive.name()
              + " names credentials_ref '"
              + drive.credentialsRef()
              + "' but no object store settings are configured for it");
    }
    var builder =
        S3Client.builder()
            .region(Region.of(drive.region()))
            .credentialsProvider(settings.credentials())
            .forcePathStyle(settings.pathStyle())
            // Plain writes are hashed by us (the manifest holds SHA-256 per part); a store-verified
            // checksum is requested explicitly by force_save, so the SDK adds none of its own.
            .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
            .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
            .httpClientBuilder(Apache5HttpClient.builder().maxConnections(MAX_CONNECTIONS))
            .overrideConfiguration(
                ClientOverrideConfiguration.builder().executionInterceptors(interceptors).build());
    settings.endpoint().ifPresent(builder::endpointOverride);
    return builder.build();
  }

  @Override
  public void close() {
    clients.values().forEach(S3Client::close);
    clients.clear();
  }
}
