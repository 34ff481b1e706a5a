package dev.protomolt.localstack.cloud;

import dev.protomolt.localstack.s3.BucketNotificationConfigurations;
import dev.protomolt.localstack.s3.NotifyingBlobStore;
import dev.protomolt.localstack.s3.ObjectCreatedListener;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.gaul.s3proxy.AccessGrant;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.nio2blob.FilesystemNio2BlobStore;
import org.gaul.shaded.org.eclipse.jetty.server.Server;

/**
 * S3 on loopback: S3Proxy in this JVM over a filesystem store, one folder per bucket under the
 * data folder, so objects survive a restart. Requests must be signed with the configured key.
 */
public final class LocalS3 implements AutoCloseable {

  public static final String COMPONENT = "S3 (S3Proxy)";

  private final S3Proxy proxy;
  private final BlobStore store;
  private final URI endpoint;

  private LocalS3(S3Proxy proxy, BlobStore store, URI endpoint) {
    this.proxy = proxy;
    this.store = store;
    this.endpoint = endpoint;
  }

  /**
   * Starts S3Proxy on {@code port} (0 for a free one) with objects under {@code dataDir}, creates
   * {@code buckets} when missing, and reports every created object to {@code listener}.
   */
  public static LocalS3 start(
      Path dataDir,
      int port,
      String accessKeyId,
      String secretAccessKey,
      List<String> buckets,
      ObjectCreatedListener listener) {
    return start(
        dataDir, port, accessKeyId, secretAccessKey, buckets, listener, key -> Optional.empty());
  }

  /**
   * As above, also accepting requests signed with any further key {@code moreSecrets} knows
   * (the per-function keys the local IAM registers), each verified against its own secret.
   */
  public static LocalS3 start(
      Path dataDir,
      int port,
      String accessKeyId,
      String secretAccessKey,
      List<String> buckets,
      ObjectCreatedListener listener,
      Function<String, Optional<String>> moreSecrets) {
    return start(dataDir, port, accessKeyId, secretAccessKey, buckets, listener, moreSecrets, null);
  }

  /**
   * As above, also answering {@code GET}/{@code PUT /<bucket>?notification} from {@code
   * notifications} (null: not served, as S3Proxy alone does not serve them).
   */
  public static LocalS3 start(
      Path dataDir,
      int port,
      String accessKeyId,
      String secretAccessKey,
      List<String> buckets,
      ObjectCreatedListener listener,
      Function<String, Optional<String>> moreSecrets,
      BucketNotificationConfigurations notifications) {
    int chosen = LoopbackPort.claim(port, COMPONENT, LocalCloudSettings.S3_PORT_SETTING);
    try {
      Files.createDirectories(dataDir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the S3 data folder " + dataDir, e);
    }
    BlobStore store =
        new NotifyingBlobStore(
            new FilesystemNio2BlobStore(dataDir.toAbsolutePath().toString()), listener);
    URI endpoint = URI.create("http://" + LoopbackPort.HOST + ":" + chosen);
    S3Proxy proxy =
        S3Proxy.builder()
            .blobStore(store)
            .endpoint(endpoint)
            .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, accessKeyId, secretAccessKey)
            // SDKs add headers S3Proxy does not know (checksums, SDK retry info); AWS ignores them
            // too.
            .ignoreUnknownHeaders(true)
            .jettyMaxThreads(16)
            .build();
    proxy.setBlobStoreLocator(
        (identity, container, blob) -> {
          if (accessKeyId.equals(identity)) {
            return new AccessGrant(secretAccessKey, store);
          }
          return moreSecrets
              .apply(identity)
              .map(secret -> new AccessGrant(secret, store))
              .orElse(null);
        });
    if (notifications != null) {
      serveNotifications(
          proxy,
          notifications,
          store::containerExists,
          id -> accessKeyId.equals(id) || moreSecrets.apply(id).isPresent());
    }
    meterRequests(proxy);
    try {
      proxy.start();
      while (!"STARTED".equals(proxy.getState())) {
        if ("FAILED".equals(proxy.getState())) {
          throw new IllegalStateException(COMPONENT + " failed to start on " + endpoint);
        }
        Thread.sleep(10);
      }
    } catch (BindException e) {
      throw new PortInUseException(COMPONENT, chosen, LocalCloudSettings.S3_PORT_SETTING, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while starting " + COMPONENT, e);
    } catch (Exception e) {
      if (e.getCause() instanceof BindException bind) {
        throw new PortInUseException(COMPONENT, chosen, LocalCloudSettings.S3_PORT_SETTING, bind);
      }
      throw new IllegalStateException(COMPONENT + " failed to start on " + endpoint, e);
    }
    LocalS3 s3 = new LocalS3(proxy, store, endpoint);
    try {
      for (String bucket : buckets) {
        if (!store.containerExists(bucket)) {
          store.createContainer(bucket);
        }
      }
    } catch (RuntimeException e) {
      s3.close();
      throw new IllegalStateException(
          COMPONENT
              + " started but could not create the buckets "
              + buckets
              + " under "
              + dataDir
              + ": "
              + e.getMessage(),
          e);
    }
    return s3;
  }

  /** Creates {@code bucket} when missing. */
  public void createBucket(String bucket) {
    if (!store.containerExists(bucket)) {
      store.createContainer(bucket);
    }
  }

  public URI endpoint() {
    return endpoint;
  }

  public int port() {
    return endpoint.getPort();
  }

  /**
   * Puts {@link BucketNotificationHandler} in front of S3Proxy's own handler. S3Proxy offers no
   * hook for another subresource, so its Jetty server is reached through its one private field;
   * a change of that field fails every start loudly here rather than silently serving nothing.
   */
  private static void serveNotifications(
      S3Proxy proxy,
      BucketNotificationConfigurations notifications,
      java.util.function.Predicate<String> bucketExists,
      java.util.function.Predicate<String> knownKey) {
    Server server = jetty(proxy, "serve bucket notifications");
    server.setHandler(
        new BucketNotificationHandler(server.getHandler(), notifications, bucketExists, knownKey));
  }

  /** Puts {@link S3RequestMeter} in front of everything, so every request served is counted. */
  private static void meterRequests(S3Proxy proxy) {
    Server server = jetty(proxy, "count requests");
    server.setHandler(new S3RequestMeter(server.getHandler()));
  }

  private static Server jetty(S3Proxy proxy, String purpose) {
    try {
      java.lang.reflect.Field field = S3Proxy.class.getDeclaredField("server");
      field.setAccessible(true);
      return (Server) field.get(proxy);
    } catch (ReflectiveOperationException | ClassCastException e) {
      throw new IllegalStateException(
          COMPONENT + ": cannot " + purpose + " on this S3Proxy version: " + e, e);
    }
  }

  @Override
  public void close() {
    try {
      proxy.stop();
    } catch (Exception e) {
      throw new IllegalStateException("cannot stop " + COMPONENT + " on " + endpoint, e);
    } finally {
      store.close();
    }
  }
}
