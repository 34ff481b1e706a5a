package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.protomolt.core.doclog.LogKey;
import dev.protomolt.module.samples.sink.JsonLinesReceiptSink;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.events.v1.DocumentIndexedEvent;
import dev.protomolt.proto.events.v1.IndexOutcome;
import dev.protomolt.repository.doclog.PostgresLogPartIndex;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.postgresql.ds.PGSimpleDataSource;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * The chaos test: 120 documents (300 under the cli pom's {@code -Pscale}) through the demo graph on the local platform while the
 * module workers are killed at random as they hold work (their channels shut at once, mid-unit)
 * and replaced. Every document must end with exactly one terminal disposition on its one path,
 * and nothing may be lost: every hop's stored state reads back with every part's SHA-256
 * verified, the original bytes arrive at the sink bit for bit, and the index holds each document
 * exactly once. The work-unit logs the gateway keeps are searchable afterwards.
 *
 * <p>It runs on the {@link SharedPlatform} with the platform's sample workers stopped for its
 * duration: its own workers, which it kills mid-work, are the only modules serving meanwhile, and
 * the sample workers start again when it ends. Gateway counters are read as differences from
 * their values at the start, since other classes ran on the same gateway before.
 *
 * <p>The seed is printed; rerun one with {@code -Dchaos.seed=N}. It picks which deliveries die
 * (see {@link ChaosWorkers}) and the documents' text.
 */
@ExtendWith(SharedPlatform.Resolver.class)
class ChaosTest {

  /**
   * 120 documents make about 480 deliveries and some 29 expected kills, well above the bound of
   * one kill per ten documents asserted below; the scale profile runs the original 300.
   */
  static final int DOCUMENTS = Integer.getInteger("chaos.documents", 120);

  static final String ACCOUNT = "chaos";
  static final String DATASOURCE = "chaos-docs";

  /** Kill chance per delivery: about one in sixteen dies (some seventy kills over 300 documents). */
  static final double KILL_CHANCE =
      Double.parseDouble(System.getProperty("chaos.killChance", "0.06"));

  /**
   * How long the run may go without one more document ending before it is called stuck: a bound
   * for failing, never a measurement, and on a loaded machine the whole run takes what it takes.
   */
  static final Duration STALL = Duration.ofSeconds(90);

  static final List<String> WORDS =
      List.of(
          "harbour",
          "beacon",
          "ledger",
          "tide",
          "granite",
          "lantern",
          "current",
          "anchor",
          "meridian",
          "shoal",
          "keeper",
          "signal",
          "chart",
          "squall");

  /** Its own graph id: graph ids and their state machines are global on the shared platform. */
  static final String GRAPH = "chaos-demo";

  @Test
  void everyDocumentEndsOnceAndIntactWhileWorkersAreKilledMidWork(SharedPlatform shared)
      throws Exception {
    long seed = Long.getLong("chaos.seed", System.nanoTime());
    System.out.println("ChaosTest seed=" + seed + " (rerun with -Dchaos.seed=" + seed + ")");
    Random random = new Random(seed);

    LocalPlatform platform = shared.platform();
    long rebufferedBefore = platform.gatewayCounters().rebufferedUnits();
    long duplicatesBefore = platform.gatewayCounters().duplicateAcks();
    try (SharedPlatform.WorkersStopped _ = shared.stopSampleWorkers()) {
      try (ChaosWorkers chaos =
          new ChaosWorkers(
              platform::gatewayChannel,
              platform::moduleCredentials,
              platform.sampleProcessors(),
              2,
              seed,
              KILL_CHANCE)) {
        platform.provisionAccount(ACCOUNT, DATASOURCE);
        long version =
            platform.applyAndActivate(
                DemoGraph.of(ACCOUNT, DATASOURCE, LocalPlatform.CLUSTER).toBuilder()
                    .setGraphId(GRAPH)
                    .build());

        Map<String, byte[]> uploaded =
            IntakeUploads.upload(platform, ACCOUNT, DATASOURCE, corpus(random));
        Map<String, String> markerByDoc = new HashMap<>();
        uploaded.forEach((docId, bytes) -> markerByDoc.put(docId, markerOf(bytes)));

        Map<String, DescribeExecutionResponse> ended =
            IntakeUploads.awaitEnded(platform, ACCOUNT, version, uploaded.keySet(), STALL);
        System.out.printf(
            "ChaosTest seed=%d: %d kills (%d after processing), %d replacements,"
                + " gateway re-buffered %d, duplicates %d%n",
            seed,
            chaos.kills(),
            chaos.killsAfterProcessing(),
            chaos.replacements(),
            platform.gatewayCounters().rebufferedUnits() - rebufferedBefore,
            platform.gatewayCounters().duplicateAcks() - duplicatesBefore);

        // Exactly one admission, one execution and one terminal disposition per document.
        List<LocalPlatform.Admission> admissions =
            platform.admissions(ACCOUNT).stream()
                .filter(a -> a.graphId().equals(GRAPH) && a.graphVersion() == version)
                .toList();
        assertThat(admissions)
            .extracting(LocalPlatform.Admission::docId)
            .as("one admission per document")
            .doesNotHaveDuplicates()
            .containsExactlyInAnyOrderElementsOf(uploaded.keySet());
        assertThat(admissions)
            .extracting(LocalPlatform.Admission::executionArn)
            .doesNotHaveDuplicates()
            .doesNotContain("");
        ObjectMapper json = new ObjectMapper();
        for (Map.Entry<String, DescribeExecutionResponse> e : ended.entrySet()) {
          DescribeExecutionResponse d = e.getValue();
          assertThat(d.status())
              .as("document %s: %s %s", e.getKey(), d.error(), d.cause())
              .isEqualTo(ExecutionStatus.SUCCEEDED);
          assertThat(json.readTree(d.output()).path("disposition").asText())
              .as("document %s", e.getKey())
              .isEqualTo("SINK_REACHED");
        }

        // Nothing lost: every hop's stored state reads back whole and carries the uploaded bytes
        // (IntakeUploads.storedAtEveryHop), its marker, and from the chunker on its chunks.
        for (Map.Entry<String, byte[]> doc : uploaded.entrySet()) {
          Map<String, PipeDoc> stored =
              IntakeUploads.storedAtEveryHop(
                  platform, ACCOUNT, GRAPH, doc.getKey(), doc.getValue());
          stored.forEach(
              (node, state) -> {
                assertThat(state.getSearchMetadata().getBody())
                    .as("%s at %s", doc.getKey(), node)
                    .contains(markerByDoc.get(doc.getKey()));
                if (!node.equals(DemoGraph.PARSE)) {
                  assertThat(state.getSearchMetadata().getSemanticResultsList())
                      .as("chunks of %s at %s", doc.getKey(), node)
                      .isNotEmpty();
                }
              });
        }

        // Indexed exactly once, and findable by its own words.
        try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(platform.indexDir()))) {
          IndexSearcher searcher = new IndexSearcher(reader);
          for (String docId : uploaded.keySet()) {
            // The sample index's field names (IndexFields): one "document" entry per doc_id.
            int entries =
                searcher.count(
                    new BooleanQuery.Builder()
                        .add(new TermQuery(new Term("doc_id", docId)), BooleanClause.Occur.FILTER)
                        .add(
                            new TermQuery(new Term("kind", "document")), BooleanClause.Occur.FILTER)
                        .build());
            assertThat(entries).as("index entries of %s", docId).isEqualTo(1);
          }
        }
        String probe = uploaded.keySet().iterator().next();
        assertThat(platform.indexSearch().text(markerByDoc.get(probe), 3))
            .extracting(hit -> hit.docId())
            .first()
            .isEqualTo(probe);
        Set<String> receipted =
            new JsonLinesReceiptSink(platform.indexDir().resolve("receipts.jsonl"))
                .readAll().stream()
                    .filter(r -> r.getOutcome() == IndexOutcome.INDEX_OUTCOME_INDEXED)
                    .map(DocumentIndexedEvent::getDocId)
                    .collect(Collectors.toSet());
        assertThat(receipted).containsAll(uploaded.keySet());

        // The modules' log lines were kept as work-unit document logs in PostgreSQL, and only the
        // settled acks' lines: the sink logged indexing the probe once, whatever the kills did.
        PGSimpleDataSource db = new PGSimpleDataSource();
        db.setURL(platform.endpoints().postgresJdbcUrl());
        db.setUser(platform.endpoints().postgresUser());
        db.setPassword(platform.endpoints().postgresPassword());
        assertThat(new PostgresLogPartIndex(db).query("indexed " + probe, 10))
            .singleElement()
            .satisfies(
                hit -> {
                  assertThat(hit.key().collection()).isEqualTo(ACCOUNT);
                  assertThat(hit.key().path()).startsWith(LogKey.WORK_UNIT_LOGS);
                });

        // The chaos really happened, and every kill cost the gateway a re-buffer, not a document.
        assertThat(chaos.kills()).as("kills with seed %d", seed).isGreaterThan(DOCUMENTS / 10);
        assertThat(chaos.killsAfterProcessing()).isPositive();
        assertThat(platform.gatewayCounters().rebufferedUnits() - rebufferedBefore)
            .isGreaterThanOrEqualTo(chaos.kills());
      }
    }
  }

  /** Light documents of 40 to 400 words; each carries a marker word found nowhere else. */
  private static Map<String, byte[]> corpus(Random random) {
    Map<String, byte[]> corpus = new LinkedHashMap<>();
    for (int i = 0; i < DOCUMENTS; i++) {
      StringBuilder text = new StringBuilder("Chaos document ").append(i).append("\n\n");
      int words = 40 + random.nextInt(360);
      for (int w = 0; w < words; w++) {
        text.append(WORDS.get(random.nextInt(WORDS.size()))).append(w % 12 == 11 ? ".\n" : " ");
      }
      text.append("\nmarker ").append(marker(i)).append('\n');
      corpus.put(
          String.format("doc-%03d.txt", i), text.toString().getBytes(StandardCharsets.UTF_8));
    }
    return corpus;
  }

  /** A word made of letters only, so the index's analyser keeps it whole: {@code zq} + base 26. */
  private static String marker(int i) {
    StringBuilder word = new StringBuilder("zq");
    int n = i;
    for (int d = 0; d < 3; d++) {
      word.append((char) ('a' + n % 26));
      n /= 26;
    }
    return word.toString();
  }

  private static String markerOf(byte[] bytes) {
    String text = new String(bytes, StandardCharsets.UTF_8);
    int at = text.lastIndexOf("marker ");
    return text.substring(at + "marker ".length()).strip();
  }
}
