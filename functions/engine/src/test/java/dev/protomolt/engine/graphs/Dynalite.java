package dev.protomolt.engine.graphs;

import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** dynalite (installed by the build under target/dynalite) as a child process on a loopback port. */
final class Dynalite implements AutoCloseable {

  private final Process process;
  private final int port;

  private Dynalite(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  static Dynalite start() throws Exception {
    Path home = Path.of(System.getProperty("dynalite.home", "target/dynalite"));
    Path cli = home.resolve("node_modules/dynalite/cli.js");
    if (!Files.exists(cli)) {
      throw new IllegalStateException("dynalite is not installed at " + cli
          + "; the build installs it with npm during process-test-resources");
    }
    int port = InProcessKafka.freePort();
    Process process = new ProcessBuilder("node", cli.toString(), "--port", String.valueOf(port), "--createTableMs", "0")
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    for (int i = 0; i < 100; i++) {
      try (Socket ignored = new Socket("127.0.0.1", port)) {
        return new Dynalite(process, port);
      } catch (IOException notYet) {
        if (!process.isAlive()) {
          throw new IllegalStateException("dynalite exited with " + process.exitValue());
        }
        Thread.sleep(100);
      }
    }
    process.destroyForcibly();
    throw new IllegalStateException("dynalite did not listen on port " + port + " within 10 s");
  }

  DynamoDbClient client() {
    return DynamoDbClient.builder()
        .endpointOverride(URI.create("http://127.0.0.1:" + port))
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
        .httpClient(UrlConnectionHttpClient.create())
        .build();
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(5, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}
