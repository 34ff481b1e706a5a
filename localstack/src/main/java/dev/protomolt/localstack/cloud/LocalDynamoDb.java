package dev.protomolt.localstack.cloud;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * DynamoDB on loopback: dynalite (npm, pinned in {@code localstack/package.json} and installed
 * by the build) run by {@code node} as a child process, with its LevelDB store under the data
 * folder. The child also exits when its standard input closes, so it cannot outlive this JVM even
 * when the JVM is killed without running shutdown hooks.
 */
public final class LocalDynamoDb implements AutoCloseable {

  public static final String COMPONENT = "DynamoDB (dynalite)";

  /** Path to dynalite's package folder, when it is not under {@code localstack/node_modules}. */
  public static final String DYNALITE_HOME_SETTING = "protomolt.local.dynalite.home";

  /** The node executable; {@code node} on the PATH by default. */
  public static final String NODE_SETTING = "protomolt.local.node";

  private static final String READY = "dynalite-ready";
  // Tables become ACTIVE at once: the AWS wait-for-active loop then costs nothing locally.
  private static final String LAUNCHER =
      String.join(
          "\n",
          "const dynalite = require(process.argv[1]);",
          "const server = dynalite({path: process.argv[4], createTableMs: 0, deleteTableMs: 0,",
          "  updateTableMs: 0});",
          "server.on('error', e => { console.error(e.code || e.message); process.exit(3); });",
          "server.listen(Number(process.argv[3]), process.argv[2], () => console.log('"
              + READY
              + "'));",
          "process.stdin.on('end', () => process.exit(0));",
          "process.stdin.on('error', () => process.exit(0));",
          "process.stdin.resume();");

  private final Process process;
  private final URI endpoint;

  private LocalDynamoDb(Process process, URI endpoint) {
    this.process = process;
    this.endpoint = endpoint;
  }

  /** Starts dynalite on {@code port} (0 for a free one) with its tables in {@code dataDir}. */
  public static LocalDynamoDb start(Path dataDir, int port) {
    int chosen = LoopbackPort.claim(port, COMPONENT, LocalCloudSettings.DYNAMODB_PORT_SETTING);
    Path dynalite = locateDynalite();
    try {
      Files.createDirectories(dataDir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the DynamoDB data folder " + dataDir, e);
    }
    String node = System.getProperty(NODE_SETTING, "node");
    ProcessBuilder builder =
        new ProcessBuilder(
                node,
                "-e",
                LAUNCHER,
                dynalite.toString(),
                LoopbackPort.HOST,
                Integer.toString(chosen),
                dataDir.toAbsolutePath().toString())
            .redirectErrorStream(true);
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new IllegalStateException(
          COMPONENT
              + " cannot start: '"
              + node
              + "' did not run ("
              + e.getMessage()
              + "); install Node.js 20+ or set -D"
              + NODE_SETTING
              + "=/path/to/node",
          e);
    }
    awaitReady(process, chosen);
    return new LocalDynamoDb(process, URI.create("http://" + LoopbackPort.HOST + ":" + chosen));
  }

  public URI endpoint() {
    return endpoint;
  }

  public int port() {
    return endpoint.getPort();
  }

  /** The node process, so callers can check it is gone after {@link #close()}. */
  public ProcessHandle processHandle() {
    return process.toHandle();
  }

  @Override
  public void close() {
    stop(process);
  }

  private static void awaitReady(Process process, int port) {
    List<String> output = new ArrayList<>();
    CompletableFuture<Boolean> ready =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                BufferedReader reader =
                    new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                String line;
                while ((line = reader.readLine()) != null) {
                  if (line.contains(READY)) {
                    drainInBackground(reader);
                    return true;
                  }
                  synchronized (output) {
                    output.add(line);
                  }
                }
                return false;
              } catch (IOException e) {
                return false;
              }
            });
    boolean started;
    try {
      started = ready.get(30, TimeUnit.SECONDS);
    } catch (TimeoutException | ExecutionException e) {
      started = false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stop(process);
      throw new IllegalStateException("interrupted while starting " + COMPONENT, e);
    }
    if (!started) {
      stop(process);
      String printed;
      synchronized (output) {
        printed = String.join("\n", output);
      }
      if (printed.contains("EADDRINUSE")) {
        throw new PortInUseException(
            COMPONENT, port, LocalCloudSettings.DYNAMODB_PORT_SETTING, null);
      }
      throw new IllegalStateException(
          COMPONENT
              + " did not start on "
              + LoopbackPort.HOST
              + ":"
              + port
              + "; it printed: "
              + printed);
    }
  }

  private static void drainInBackground(BufferedReader reader) {
    // dynalite prints nothing more unless it fails; reading keeps its pipe from filling up.
    Thread.ofVirtual()
        .name("dynalite-output")
        .start(
            () -> {
              try {
                while (reader.readLine() != null) {
                  // Discarded: dynalite runs without verbose logging.
                }
              } catch (IOException ignored) {
                // The process ended.
              }
            });
  }

  static void stop(Process process) {
    if (!process.isAlive()) {
      return;
    }
    try {
      process.getOutputStream().close();
    } catch (IOException ignored) {
      // Closing stdin is only the polite request; destroy below is the real one.
    }
    process.destroy();
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Finds dynalite's package folder: the setting when given, else {@code node_modules/dynalite} or
   * {@code localstack/node_modules/dynalite} in the working folder or any folder above it.
   */
  static Path locateDynalite() {
    String configured = System.getProperty(DYNALITE_HOME_SETTING);
    if (configured != null && !configured.isBlank()) {
      Path home = Path.of(configured).toAbsolutePath();
      if (!Files.isRegularFile(home.resolve("package.json"))) {
        throw new IllegalStateException(
            DYNALITE_HOME_SETTING
                + " points at "
                + home
                + ", which is not the dynalite package folder (no package.json)");
      }
      return home;
    }
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      for (Path candidate :
          List.of(
              dir.resolve("node_modules/dynalite"),
              dir.resolve("localstack/node_modules/dynalite"))) {
        if (Files.isRegularFile(candidate.resolve("package.json"))) {
          return candidate;
        }
      }
    }
    throw new IllegalStateException(
        COMPONENT
            + " is not installed: run `./mvnw -pl localstack"
            + " generate-resources` (it runs npm ci in localstack/) or set -D"
            + DYNALITE_HOME_SETTING
            + "=/path/to/node_modules/dynalite");
  }
}
