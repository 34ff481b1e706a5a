package dev.protomolt.bench.gateway;

import dev.protomolt.gateway.BufferedWorkSource;
import dev.protomolt.gateway.DeadGraphScreen;
import dev.protomolt.gateway.GatewayClock;
import dev.protomolt.gateway.GatewaySettings;
import dev.protomolt.gateway.ModuleWorkGateway;
import dev.protomolt.gateway.ScreenVerdict;
import dev.protomolt.gateway.StoreWorkDocuments;
import dev.protomolt.gateway.TaskCompletion;
import dev.protomolt.module.sdk.ModuleOutcome;
import dev.protomolt.module.sdk.ModuleWorker;
import dev.protomolt.module.sdk.WorkerClock;
import dev.protomolt.module.sdk.WorkerConfig;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.StreamMetadata;
import dev.protomolt.proto.module.v1.Hello;
import dev.protomolt.proto.module.v1.ModuleWorkServiceGrpc;
import dev.protomolt.proto.module.v1.RejectReason;
import dev.protomolt.proto.module.v1.WorkDispatch;
import dev.protomolt.proto.module.v1.WorkRequest;
import dev.protomolt.proto.module.v1.WorkResponse;
import dev.protomolt.repository.CachedAccountStatus;
import dev.protomolt.repository.PipeDocStore;
import dev.protomolt.repository.fixtures.PostgresFixture;
import dev.protomolt.repository.fixtures.RecordedPurgeEvents;
import dev.protomolt.repository.postgres.PostgresAccountStatus;
import dev.protomolt.repository.postgres.PostgresDriveDirectory;
import dev.protomolt.repository.postgres.PostgresGraphVersions;
import dev.protomolt.repository.postgres.PostgresLedgerStore;
import dev.protomolt.repository.s3.S3BlobStore;
import dev.protomolt.repository.s3.S3Clients;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The dead-graph backlog drain rate (issue 9): a backlog of records pinned to a deleted graph
 * version, drained by the gateway's Hello-handler screening, against the same kind of backlog
 * drained the way it was before screening: every record served to a module (the SDK worker, four
 * streams) that rejects it. Both run in-process in the same JVM and run; Step Functions is a
 * counter in both, so the baseline's real cost (one SendTaskFailure per record) is understated and
 * the ratio is conservative. The seed's figure for the old gateway is 16 000 records/min.
 */
public final class DeadGraphDrainBenchmarkMain {

  private static final String MODULE = "parser";
  private static final double SEED_PER_MINUTE = 16_000;

  private DeadGraphDrainBenchmarkMain() {}

  public static void main(String[] args) throws Exception {
    boolean quick = Boolean.getBoolean("bench.quick");
    int screened = quick ? 5_000 : 38_000;
    int baseline = quick ? 500 : 3_000;
    try (PostgresFixture postgres = PostgresFixture.start();
        S3Clients s3 = new S3Clients(Map.of(), List.of())) {
      try (Connection c = postgres.dataSource().getConnection();
          Statement s = c.createStatement()) {
        s.execute(
            "INSERT INTO pipeline_graph_epochs (graph_id, cluster_id) VALUES ('news', 'default')");
        s.execute(
            "INSERT INTO pipeline_graphs (graph_id, version, cluster_id, graph_json,"
                + " graph_proto, created_at) VALUES ('news', 2, 'default', '{}', '\\x00', now())");
      }
      // Inline bodies: neither run reads the store, but the gateway is built as in production.
      PipeDocStore store =
          new PipeDocStore(
              new PostgresLedgerStore(postgres.dataSource()),
              new S3BlobStore(s3),
              new PostgresDriveDirectory(postgres.dataSource()),
              new CachedAccountStatus(new PostgresAccountStatus(postgres.dataSource())),
              new RecordedPurgeEvents(),
              Clock.systemUTC());
      StoreWorkDocuments documents = new StoreWorkDocuments(store);
      DeadGraphScreen deadGraphs =
          new DeadGraphScreen(
              new PostgresGraphVersions(postgres.dataSource())::exists, Duration.ofSeconds(30));

      // Warm-up of both paths, so neither pays class loading in its measurement.
      drainScreened(documents, deadGraphs, 2_000);
      drainByModule(documents, 200);

      double screenedRate = drainScreened(documents, deadGraphs, screened);
      double baselineRate = drainByModule(documents, baseline);
      System.out.printf(
          Locale.ROOT,
          "dead-graph backlog drain, screened in the Hello handler:"
              + " %,d records, %,.0f records/min%n",
          screened,
          screenedRate);
      System.out.printf(
          Locale.ROOT,
          "baseline, each record served to a module that rejects it:"
              + " %,d records, %,.0f records/min%n",
          baseline,
          baselineRate);
      System.out.printf(
          Locale.ROOT,
          "ratio screened / baseline: %.1fx; screened / seed figure" + " (16,000/min): %.1fx%n",
          screenedRate / baselineRate,
          screenedRate / SEED_PER_MINUTE);
    }
  }

  static WorkDispatch dead(int i) {
    return WorkDispatch.newBuilder()
        .setWorkUnitId("wu-" + i)
        .setTaskToken("token-" + i)
        .setModuleId(MODULE)
        .setNodeId("parse")
        .setGraphId("news")
        .setGraphVersion(1)
        .setClusterId("default")
        .setHeartbeatSeconds(30)
        .setStream(
            PipeStream.newBuilder()
                .setStreamId("s-" + i)
                .setMetadata(StreamMetadata.newBuilder().setAccountId("acme"))
                .setDocument(PipeDoc.newBuilder().setDocId("doc-" + i)))
        .build();
  }

  static BufferedWorkSource backlog(int n) {
    BufferedWorkSource source = new BufferedWorkSource(n);
    for (int i = 0; i < n; i++) {
      WorkDispatch d = dead(i);
      source.offer(MODULE, d.getWorkUnitId(), d.toByteArray());
    }
    return source;
  }

  /** Records per minute drained by one Hello, with the dead-graph screen in place. */
  static double drainScreened(StoreWorkDocuments documents, DeadGraphScreen screen, int n)
      throws Exception {
    BufferedWorkSource source = backlog(n);
    CountingCompletion sfn = new CountingCompletion();
    ModuleWorkGateway gateway =
        new ModuleWorkGateway(
            source, sfn, screen, documents, GatewayClock.system(), GatewaySettings.defaults());
    String name = InProcessServerBuilder.generateName();
    Server server =
        InProcessServerBuilder.forName(name).directExecutor().addService(gateway).build().start();
    ManagedChannel channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    try {
      long start = System.nanoTime();
      var requests = ModuleWorkServiceGrpc.newStub(channel).work(new Ignore());
      requests.onNext(
          WorkRequest.newBuilder()
              .setHello(Hello.newBuilder().setModuleId(MODULE).setInstanceId("bench"))
              .build());
      long elapsed = System.nanoTime() - start;
      if (gateway.counters().drainedTotal() != n || source.buffered(MODULE) != 0) {
        throw new IllegalStateException(
            "drained " + gateway.counters().drainedTotal() + " of " + n);
      }
      requests.onCompleted();
      return n * 60e9 / elapsed;
    } finally {
      channel.shutdownNow();
      server.shutdownNow();
    }
  }

  /** Records per minute when every record reaches a module, which rejects it. */
  static double drainByModule(StoreWorkDocuments documents, int n) throws Exception {
    BufferedWorkSource source = backlog(n);
    CountingCompletion sfn = new CountingCompletion();
    ModuleWorkGateway gateway =
        new ModuleWorkGateway(
            source,
            sfn,
            d -> ScreenVerdict.SERVE,
            documents,
            GatewayClock.system(),
            GatewaySettings.defaults());
    String name = InProcessServerBuilder.generateName();
    Server server = InProcessServerBuilder.forName(name).addService(gateway).build().start();
    ManagedChannel channel = InProcessChannelBuilder.forName(name).build();
    ModuleWorker worker =
        new ModuleWorker(
            channel,
            WorkerConfig.of(MODULE, 4),
            work ->
                ModuleOutcome.reject(RejectReason.REJECT_REASON_POLICY, "graph version deleted"),
            WorkerClock.system());
    try {
      long start = System.nanoTime();
      worker.start();
      while (sfn.failures.get() < n) {
        Thread.sleep(1);
      }
      long elapsed = System.nanoTime() - start;
      return n * 60e9 / elapsed;
    } finally {
      worker.shutdownNow();
      channel.shutdownNow();
      server.shutdownNow();
    }
  }

  /** Step Functions stand-in for both runs: counts, never waits. */
  static final class CountingCompletion implements TaskCompletion {
    final AtomicLong failures = new AtomicLong();

    @Override
    public void succeed(String taskToken, String outputJson) {}

    @Override
    public void fail(String taskToken, String error, String causeJson) {
      failures.incrementAndGet();
    }

    @Override
    public void heartbeat(String taskToken) {}
  }

  static final class Ignore implements StreamObserver<WorkResponse> {
    @Override
    public void onNext(WorkResponse value) {}

    @Override
    public void onError(Throwable t) {}

    @Override
    public void onCompleted() {}
  }
}
