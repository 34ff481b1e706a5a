package dev.protomolt.engine.hop;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * A single combined broker+controller KRaft node in this JVM, on loopback ports, for tests. The
 * same as the graph tests' broker (package-private there); the two should become one shared fixture.
 */
final class InProcessKafka implements AutoCloseable {

  private final Path logDir;
  private final KafkaRaftServer server;
  private final int port;

  private InProcessKafka(Path logDir, KafkaRaftServer server, int port) {
    this.logDir = logDir;
    this.server = server;
    this.port = port;
  }

  static InProcessKafka start() throws Exception {
    int port = freePort();
    int controllerPort = freePort();
    Path logDir = Files.createTempDirectory("kraft-");
    Properties p = new Properties();
    p.put("process.roles", "broker,controller");
    p.put("node.id", "1");
    p.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
    p.put("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
    p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
    p.put("controller.listener.names", "CONTROLLER");
    p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    p.put("inter.broker.listener.name", "PLAINTEXT");
    p.put("log.dirs", logDir.toString());
    p.put("num.partitions", "1");
    p.put("offsets.topic.replication.factor", "1");
    p.put("offsets.topic.num.partitions", "1");
    p.put("transaction.state.log.replication.factor", "1");
    p.put("transaction.state.log.min.isr", "1");
    p.put("share.coordinator.state.topic.replication.factor", "1");
    p.put("share.coordinator.state.topic.min.isr", "1");
    p.put("group.initial.rebalance.delay.ms", "0");
    // The log cleaner reserves 128 MiB for its dedupe buffer by default: far too much for a test JVM.
    p.put("log.cleaner.dedupe.buffer.size", String.valueOf(2 * 1024 * 1024));
    KafkaConfig config = KafkaConfig.fromProps(p, false);
    new Formatter()
        .setNodeId(1)
        .setClusterId(Uuid.randomUuid().toString())
        .setDirectories(List.of(logDir.toString()))
        .setMetadataLogDirectory(logDir.toString())
        .setControllerListenerName("CONTROLLER")
        .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
        .setPrintStream(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()))
        .run();
    KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
    server.startup();
    return new InProcessKafka(logDir, server, port);
  }

  String bootstrapServers() {
    return "127.0.0.1:" + port;
  }

  @Override
  public void close() throws IOException {
    server.shutdown();
    server.awaitShutdown();
    try (Stream<Path> files = Files.walk(logDir)) {
      files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
