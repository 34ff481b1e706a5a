package dev.protomolt.cli;

import dev.protomolt.core.orchestration.StateMachineNames;
import dev.protomolt.localstack.cloud.LocalCloudEndpoints;
import dev.protomolt.module.samples.sink.JsonLinesReceiptSink;
import dev.protomolt.module.samples.sink.SearchHit;
import dev.protomolt.proto.events.v1.DocumentIndexedEvent;
import dev.protomolt.proto.events.v1.IndexOutcome;
import io.grpc.ManagedChannel;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.IntConsumer;
import java.util.stream.Stream;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The demo on a running {@link LocalPlatform}: provision an account, apply the demo graph, upload a
 * corpus to the intake bucket with the AWS SDK, wait for every document's terminal disposition and
 * summarise. The bundled corpus is three short documents (plain text, Markdown, HTML).
 */
public final class DemoRun {

  public static final String ACCOUNT = "demo";
  public static final String DATASOURCE = "samples";
  static final List<String> BUNDLED = List.of("lighthouses.txt", "tides.md", "harbours.html");

  /** One uploaded document and how its execution ended. */
  public record Outcome(String name, String docId, String disposition) {}

  /**
   * What the demo did. {@code perNode} says where each document's walk ended and how, as the
   * executions recorded it; {@code nodes} what the document store holds at each node. {@code
   * complete} is true only if every document reached a disposition.
   */
  public record Summary(
      List<Outcome> documents,
      Map<String, Integer> dispositions,
      NodeDispositions perNode,
      List<NodeTally> nodes,
      int indexed,
      Optional<SearchHit> sampleHit,
      boolean complete) {

    /** Every part stored for the run's documents, over the intake copies and every node's copies. */
    public long partsStored() {
      return nodes.stream().mapToLong(NodeTally::parts).sum();
    }
  }

  private DemoRun() {}

  /** The bundled corpus, by file name. */
  public static Map<String, byte[]> bundledCorpus() {
    Map<String, byte[]> corpus = new LinkedHashMap<>();
    for (String name : BUNDLED) {
      try (InputStream in = DemoRun.class.getResourceAsStream("corpus/" + name)) {
        if (in == null) {
          throw new IllegalStateException("the bundled corpus file corpus/" + name + " is missing");
        }
        corpus.put(name, in.readAllBytes());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return corpus;
  }

  /** Every regular file directly in {@code dir}, by file name. */
  public static Map<String, byte[]> corpusIn(Path dir) {
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException("DIR: " + dir + " is not a directory");
    }
    Map<String, byte[]> corpus = new TreeMap<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        corpus.put(f.getFileName().toString(), Files.readAllBytes(f));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + dir + ": " + e.getMessage(), e);
    }
    if (corpus.isEmpty()) {
      throw new IllegalArgumentException("DIR: " + dir + " holds no files to ingest");
    }
    return corpus;
  }

  /**
   * Runs the demo with {@code corpus}; waits at most {@code patience} for the documents, then
   * reports whatever has not ended as {@code PENDING}.
   */
  public static Summary run(
      LocalPlatform platform, Map<String, byte[]> corpus, String searchText, Duration patience)
      throws InterruptedException {
    return run(platform, corpus, searchText, patience, done -> {});
  }

  /** As above, telling {@code progress} how many documents have ended each time it looks. */
  public static Summary run(
      LocalPlatform platform,
      Map<String, byte[]> corpus,
      String searchText,
      Duration patience,
      IntConsumer progress)
      throws InterruptedException {
    platform.provisionAccount(ACCOUNT, DATASOURCE);
    platform.applyAndActivate(DemoGraph.of(ACCOUNT, DATASOURCE, LocalPlatform.CLUSTER));
    Map<String, String> docIdByName = new LinkedHashMap<>();
    LocalCloudEndpoints ep = platform.endpoints();
    // On a reused data folder the same uploads were admitted to earlier versions too; only
    // admissions from this run count.
    Instant since = Instant.now();
    try (S3Client s3 =
        S3Client.builder()
            .endpointOverride(ep.s3())
            .region(Region.of(ep.region()))
            .forcePathStyle(true)
            .httpClient(UrlConnectionHttpClient.create())
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(ep.accessKeyId(), ep.secretAccessKey())))
            .build()) {
      for (Map.Entry<String, byte[]> doc : corpus.entrySet()) {
        String key = ACCOUNT + "/" + DATASOURCE + "/" + doc.getKey();
        s3.putObject(
            b -> b.bucket(LocalPlatform.INTAKE_BUCKET).key(key),
            RequestBody.fromBytes(doc.getValue()));
        // IntakeService names the document by bucket and key, so the demo knows it in advance.
        docIdByName.put(
            doc.getKey(), StateMachineNames.hashOf("intake", LocalPlatform.INTAKE_BUCKET, key));
      }
    }
    // The demo reads what happened through the gateway's runs door as an operator, like `ingest
    // --wait`, never the database (decision 1523).
    ManagedChannel channel =
        platform.gatewayChannel().intercept(platform.operatorCredentials().interceptor()).build();
    try {
      return watch(
          platform, new PlatformRuns(channel), docIdByName, since, searchText, patience, progress);
    } finally {
      channel.shutdownNow();
    }
  }

  private static Summary watch(
      LocalPlatform platform,
      PlatformRuns runs,
      Map<String, String> docIdByName,
      Instant since,
      String searchText,
      Duration patience,
      IntConsumer progress)
      throws InterruptedException {
    DispositionWatch watch =
        new DispositionWatch(
            docIds -> runs.admissions(ACCOUNT, docIds, since), platform.stepFunctions());
    Map<String, List<DispositionWatch.Ending>> dispositionByDoc = Map.of();
    long deadline = System.nanoTime() + patience.toNanos();
    while (true) {
      dispositionByDoc = watch.terminal(docIdByName.values());
      progress.accept(dispositionByDoc.size());
      if (dispositionByDoc.size() == docIdByName.size() || System.nanoTime() > deadline) {
        break;
      }
      Thread.sleep(100);
    }
    List<Outcome> outcomes = new ArrayList<>();
    Map<String, Integer> counts = new TreeMap<>();
    for (Map.Entry<String, String> e : docIdByName.entrySet()) {
      List<DispositionWatch.Ending> endings = dispositionByDoc.get(e.getValue());
      String disposition = endings == null ? "PENDING" : DispositionWatch.describe(endings);
      outcomes.add(new Outcome(e.getKey(), e.getValue(), disposition));
      counts.merge(disposition, 1, Integer::sum);
    }
    int indexed;
    Optional<SearchHit> hit;
    try {
      indexed =
          (int)
              new JsonLinesReceiptSink(platform.indexDir().resolve("receipts.jsonl"))
                  .readAll().stream()
                      .filter(r -> r.getOutcome() == IndexOutcome.INDEX_OUTCOME_INDEXED)
                      .map(DocumentIndexedEvent::getDocId)
                      .filter(docIdByName::containsValue)
                      .distinct()
                      .count();
      hit = platform.indexSearch().text(searchText, 1).stream().findFirst();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the sample index: " + e.getMessage(), e);
    }
    NodeDispositions perNode =
        NodeDispositions.of(
            dispositionByDoc.values(), docIdByName.size() - dispositionByDoc.size());
    return new Summary(
        List.copyOf(outcomes),
        Map.copyOf(counts),
        perNode,
        runs.tallies(ACCOUNT, DemoGraph.GRAPH_ID, docIdByName.values()),
        indexed,
        hit,
        !counts.containsKey("PENDING"));
  }
}
