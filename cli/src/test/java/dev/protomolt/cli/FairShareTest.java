package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.localstack.cloud.LocalCloudSettings;
import dev.protomolt.module.samples.sink.IndexSinkModule;
import dev.protomolt.module.sdk.DocumentProcessor;
import dev.protomolt.module.sdk.ModuleWorker;
import dev.protomolt.module.sdk.WorkerClock;
import dev.protomolt.module.sdk.WorkerConfig;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.testsupport.Eventually;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fair share end to end (decision 1652): with every module stopped, account A queues a backlog,
 * then account B a few documents; then the modules start. B's documents must reach the sink before
 * A's first tenth do, compared by the order the sink module is called in (no timer).
 *
 * <p>The size, 5,000 and 20, takes many minutes on two cores, so it runs only under the cli
 * module's {@code -Pscale} profile ({@code fairness.a} / {@code fairness.b}); the default suite
 * holds the same bound at the gateway's buffer with the full counts ({@code KafkaWorkSourceTest}).
 */
class FairShareTest {

  static final int BACKLOG = Integer.getInteger("fairness.a", 0);
  static final int FEW = Integer.getInteger("fairness.b", 0);

  /** A datasource has one owning account, so each account uploads to its own. */
  static String datasourceOf(String account) {
    return account + "-docs";
  }

  @TempDir Path data;

  @Test
  void anotherAccountsFewDocumentsFinishBeforeTheFirstTenthOfABacklog() throws Exception {
    Assumptions.assumeTrue(
        BACKLOG > 0 && FEW > 0, "runs under -Pscale (fairness.a and fairness.b set)");
    Duration patience = Duration.ofSeconds(Math.max(300, BACKLOG / 2));
    try (LocalPlatform platform = LocalPlatform.start(LocalCloudSettings.ephemeral(data), 0)) {
      platform.stopSampleWorkers();
      for (String account : List.of("acct-a", "acct-b")) {
        platform.provisionAccount(account, datasourceOf(account));
        platform.applyAndActivate(
            DemoGraph.of(account, datasourceOf(account), LocalPlatform.CLUSTER).toBuilder()
                .setGraphId("fair-" + account)
                .setName("fair-" + account)
                .build());
      }
      Set<String> a = upload(platform, "acct-a", BACKLOG);
      awaitAdmitted(platform, "acct-a", BACKLOG, patience);
      Set<String> b = upload(platform, "acct-b", FEW);
      awaitAdmitted(platform, "acct-b", FEW, patience);

      List<String> sunk = Collections.synchronizedList(new ArrayList<>());
      Modules modules = new Modules(platform, sunk);
      try (modules) {
        Eventually.until(
            "B's documents and A's first tenth to reach the sink",
            patience,
            () -> sunk.containsAll(b) && sunk.stream().filter(a::contains).count() >= BACKLOG / 10);
      }
      List<String> order = List.copyOf(sunk);
      int lastB = order.stream().filter(b::contains).mapToInt(order::indexOf).max().orElseThrow();
      long aBefore = order.subList(0, lastB).stream().filter(a::contains).count();
      assertThat(aBefore)
          .as("A's documents through the sink before B's last one")
          .isLessThan(BACKLOG / 10);
    }
  }

  private static Set<String> upload(LocalPlatform platform, String account, int count) {
    Map<String, byte[]> corpus = new LinkedHashMap<>();
    for (int i = 0; i < count; i++) {
      corpus.put(
          account + "-" + i + ".txt",
          ("Fair share document " + i + " of " + account + ".\n").getBytes(StandardCharsets.UTF_8));
    }
    return Set.copyOf(
        IntakeUploads.upload(platform, account, datasourceOf(account), corpus).keySet());
  }

  private static void awaitAdmitted(
      LocalPlatform platform, String account, int count, Duration patience) {
    Eventually.until(
        account + "'s documents admitted",
        patience,
        () ->
            platform.admissions(account).stream().filter(x -> !x.executionArn().isEmpty()).count()
                >= count);
  }

  /** The sample modules on the test's own workers; the sink records the order it is called in. */
  private static final class Modules implements AutoCloseable {
    private final ManagedChannel channel;
    private final List<ModuleWorker> workers = new ArrayList<>();

    Modules(LocalPlatform platform, List<String> sunk) {
      channel = platform.gatewayChannel().build();
      for (Map.Entry<String, DocumentProcessor> m : platform.sampleProcessors().entrySet()) {
        DocumentProcessor inner = m.getValue();
        DocumentProcessor processor =
            m.getKey().equals(IndexSinkModule.MODULE_ID)
                ? work -> {
                  var outcome = inner.process(work);
                  sunk.add(docId(work.stream()));
                  return outcome;
                }
                : inner;
        ModuleWorker worker =
            new ModuleWorker(
                // Each worker signs as its module's principal, as the gateway requires (1741).
                ClientInterceptors.intercept(
                    channel, platform.moduleCredentials(m.getKey()).interceptor()),
                WorkerConfig.of(m.getKey(), 2),
                processor,
                WorkerClock.system());
        worker.start();
        workers.add(worker);
      }
    }

    private static String docId(PipeStream stream) {
      return stream.hasDocumentRef()
          ? stream.getDocumentRef().getDocId()
          : stream.getDocument().getDocId();
    }

    @Override
    public void close() {
      workers.forEach(ModuleWorker::close);
      channel.shutdownNow();
    }
  }
}
