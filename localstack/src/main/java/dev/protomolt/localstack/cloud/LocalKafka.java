package dev.protomolt.localstack.cloud;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.internals.Exit;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * Kafka (standing in for MSK) on loopback: one KRaft node that is both broker and controller,
 * running in this JVM, with its log under the data folder. The log folder is formatted once, on
 * first start, and reused afterwards so topics, records and committed offsets survive a restart.
 */
public final class LocalKafka implements AutoCloseable {

  public static final String COMPONENT = "Kafka broker";
  public static final String CONTROLLER_COMPONENT = "Kafka controller";
  private static final int NODE_ID = 1;

  private final KafkaRaftServer server;
  private final int port;

  private LocalKafka(KafkaRaftServer server, int port) {
    this.server = server;
    this.port = port;
  }

  /** Starts the broker on {@code port} and its controller on {@code controllerPort} (0: free). */
  public static LocalKafka start(Path logDir, int port, int controllerPort) {
    return start(logDir, port, controllerPort, true);
  }

  /**
   * As {@link #start(Path, int, int)}; with {@code autoCreateTopics} false the broker refuses
   * records for topics nobody created, as MSK Serverless does.
   */
  public static LocalKafka start(
      Path logDir, int port, int controllerPort, boolean autoCreateTopics) {
    int brokerPort = LoopbackPort.claim(port, COMPONENT, LocalCloudSettings.KAFKA_PORT_SETTING);
    int quorumPort =
        LoopbackPort.claim(
            controllerPort, CONTROLLER_COMPONENT, LocalCloudSettings.KAFKA_CONTROLLER_PORT_SETTING);
    if (quorumPort == brokerPort) {
      quorumPort =
          LoopbackPort.claim(
              0, CONTROLLER_COMPONENT, LocalCloudSettings.KAFKA_CONTROLLER_PORT_SETTING);
    }
    keepKafkaFromExitingTheJvm();
    Properties props = properties(logDir, brokerPort, quorumPort);
    props.put("auto.create.topics.enable", Boolean.toString(autoCreateTopics));
    KafkaConfig config = KafkaConfig.fromProps(props, false);
    formatOnce(logDir);
    KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
    try {
      server.startup();
    } catch (RuntimeException e) {
      server.shutdown();
      server.awaitShutdown();
      throw new IllegalStateException(
          COMPONENT
              + " failed to start on "
              + LoopbackPort.HOST
              + ":"
              + brokerPort
              + " with its log in "
              + logDir
              + ": "
              + e.getMessage(),
          e);
    }
    return new LocalKafka(server, brokerPort);
  }

  public int port() {
    return port;
  }

  /** The {@code bootstrap.servers} value clients use. */
  public String bootstrapServers() {
    return LoopbackPort.HOST + ":" + port;
  }

  @Override
  public void close() {
    server.shutdown();
    server.awaitShutdown();
  }

  static Properties properties(Path logDir, int brokerPort, int controllerPort) {
    Properties p = new Properties();
    p.put("process.roles", "broker,controller");
    p.put("node.id", Integer.toString(NODE_ID));
    // A static quorum: the voters come from this setting, so the controller port may change
    // between runs without touching the formatted log.
    p.put("controller.quorum.voters", NODE_ID + "@" + LoopbackPort.HOST + ":" + controllerPort);
    p.put(
        "listeners",
        "PLAINTEXT://"
            + LoopbackPort.HOST
            + ":"
            + brokerPort
            + ",CONTROLLER://"
            + LoopbackPort.HOST
            + ":"
            + controllerPort);
    p.put("advertised.listeners", "PLAINTEXT://" + LoopbackPort.HOST + ":" + brokerPort);
    p.put("controller.listener.names", "CONTROLLER");
    p.put("inter.broker.listener.name", "PLAINTEXT");
    p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    p.put("log.dirs", logDir.toAbsolutePath().toString());
    p.put("auto.create.topics.enable", "true");
    p.put("num.partitions", "1");
    // One node: every internal topic has one replica and needs only itself in sync.
    p.put("offsets.topic.replication.factor", "1");
    p.put("offsets.topic.num.partitions", "1");
    p.put("transaction.state.log.replication.factor", "1");
    p.put("transaction.state.log.min.isr", "1");
    p.put("transaction.state.log.num.partitions", "1");
    p.put("share.coordinator.state.topic.replication.factor", "1");
    p.put("share.coordinator.state.topic.min.isr", "1");
    p.put("share.coordinator.state.topic.num.partitions", "1");
    p.put("min.insync.replicas", "1");
    // A consumer group forms at once instead of waiting 3 s for more members that never come.
    p.put("group.initial.rebalance.delay.ms", "0");
    // The log cleaner reserves 128 MiB for de-duplication by default (ARCHITECTURE §8); the local
    // compacted topics (consumer offsets) are tiny.
    p.put("log.cleaner.dedupe.buffer.size", Integer.toString(2 * 1024 * 1024));
    p.put("log.cleaner.io.buffer.size", Integer.toString(64 * 1024));
    p.put("log.cleaner.threads", "1");
    // Few threads: this broker shares two cores with everything else.
    p.put("num.network.threads", "1");
    p.put("num.io.threads", "2");
    p.put("background.threads", "2");
    p.put("num.recovery.threads.per.data.dir", "1");
    p.put("num.replica.fetchers", "1");
    p.put("log.index.size.max.bytes", Integer.toString(1024 * 1024));
    return p;
  }

  private static void formatOnce(Path logDir) {
    if (Files.exists(logDir.resolve("meta.properties"))) {
      return;
    }
    try {
      Files.createDirectories(logDir);
      new Formatter()
          .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
          .setNodeId(NODE_ID)
          .setClusterId(Uuid.randomUuid().toString())
          .setDirectories(List.of(logDir.toAbsolutePath().toString()))
          .setMetadataLogDirectory(logDir.toAbsolutePath().toString())
          .setControllerListenerName("CONTROLLER")
          .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
          .run();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the Kafka log folder " + logDir, e);
    } catch (Exception e) {
      throw new IllegalStateException(
          "cannot format the Kafka log folder " + logDir + ": " + e.getMessage(), e);
    }
  }

  private static void keepKafkaFromExitingTheJvm() {
    // Kafka calls System.exit on fatal errors; in the local cloud that would take the tests or
    // the protomolt command down with it, so its exit and halt become exceptions instead.
    Exit.setExitProcedure(
        (status, message) -> {
          throw new IllegalStateException(
              "Kafka asked to exit with status " + status + ": " + message);
        });
    Exit.setHaltProcedure(
        (status, message) -> {
          throw new IllegalStateException(
              "Kafka asked to halt with status " + status + ": " + message);
        });
  }
}
