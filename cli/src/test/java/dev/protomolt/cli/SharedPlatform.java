package dev.protomolt.cli;

import dev.protomolt.localstack.cloud.LocalCloudEndpoints;
import dev.protomolt.localstack.cloud.LocalCloudSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * One running {@link LocalPlatform} for every end-to-end class that can share it, started the
 * first time a class asks for it and closed when the whole test run ends. Starting the platform
 * (local cloud, engine, gateway, sample modules) is most of an end-to-end class's cost, and the
 * classes only differ in what they do on it.
 *
 * <p>A class takes it as a parameter of a before-all or test method and registers the {@link
 * Resolver} extension. Sharing holds because each class provisions its own account and
 * datasources and uses its own graph ids: datasource ids, graph ids and their state machines are
 * global on a platform, accounts keep everything else apart. A class that must restart the
 * platform or kill its workers starts its own instead.
 *
 * <p>The platform listens on fixed free ports published as the {@code -Dprotomolt.local.*.port}
 * properties for the whole run (see {@link LocalPorts}), so commands that derive their endpoints
 * from the settings alone ({@code env}, {@code ingest}, {@code replay}, {@code search}) find it, as
 * they would find one a user started with {@code protomolt up}. A test of the defaults runs under
 * {@link LocalPorts#unsetDuring}.
 */
final class SharedPlatform implements AutoCloseable {

  private final Path data;
  private final LocalPlatform platform;

  private SharedPlatform(Path data, LocalPlatform platform) {
    this.data = data;
    this.platform = platform;
  }

  private static SharedPlatform start() {
    Path data;
    try {
      data = Files.createTempDirectory("protomolt-shared-platform-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    LocalPorts.claim();
    try {
      return new SharedPlatform(data, LocalPlatform.start(settingsFor(data), 0));
    } catch (RuntimeException e) {
      LocalPorts.release();
      throw e;
    }
  }

  private static LocalCloudSettings settingsFor(Path data) {
    return LocalCloudSettings.fromSystemProperties().withDataDir(data);
  }

  LocalPlatform platform() {
    return platform;
  }

  /**
   * Stops the platform's sample workers until the returned handle is closed, for a class that
   * plays the modules itself (counting, killing or withholding them). Classes run one after
   * another in the run's JVM, so no other class is starved meanwhile.
   */
  WorkersStopped stopSampleWorkers() {
    platform.stopSampleWorkers();
    return platform::startSampleWorkers;
  }

  /** The sample workers stopped by {@link #stopSampleWorkers}; closing starts them again. */
  interface WorkersStopped extends AutoCloseable {
    @Override
    void close();
  }

  /** The platform's data folder, for commands' {@code --data}. */
  Path data() {
    return data;
  }

  /** The settings a command run beside the platform derives from the properties and the folder. */
  LocalCloudSettings settings() {
    return settingsFor(data);
  }

  /** {@code host:port} of the platform's gateway, for commands' {@code --gateway}. */
  String gateway() {
    return "127.0.0.1:" + platform.gatewayPort();
  }

  /** The CA file the gateway's TLS front is trusted by, for commands' {@code --gateway-ca}. */
  String gatewayCa() {
    return platform.gatewayCa().toString();
  }

  /** A client of the platform's S3; the caller closes it. */
  S3Client s3() {
    LocalCloudEndpoints ep = platform.endpoints();
    return S3Client.builder()
        .endpointOverride(ep.s3())
        .region(Region.of(ep.region()))
        .forcePathStyle(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(ep.accessKeyId(), ep.secretAccessKey())))
        .httpClient(UrlConnectionHttpClient.create())
        .build();
  }

  @Override
  public void close() throws IOException {
    try {
      platform.close();
    } finally {
      LocalPorts.release();
      try (Stream<Path> files = Files.walk(data)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /**
   * Resolves a {@link SharedPlatform} parameter from the root store of the run, so every class
   * gets the same one and JUnit closes it once, after the last class.
   */
  static final class Resolver implements ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
        ExtensionContext.Namespace.create(SharedPlatform.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
      return parameter.getParameter().getType() == SharedPlatform.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
      return context
          .getRoot()
          .getStore(NAMESPACE)
          .computeIfAbsent(SharedPlatform.class, k -> start(), SharedPlatform.class);
    }
  }
}
