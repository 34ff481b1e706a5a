package dev.protomolt.bench.repository;

import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeDocPart;
import dev.protomolt.proto.repository.v1.GetPipeDocRequest;
import dev.protomolt.repository.fixtures.GetLatency;
import dev.protomolt.repository.fixtures.SampleDocs;
import dev.protomolt.repository.fixtures.Saves;
import dev.protomolt.repository.fixtures.StoreHarness;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The document store on S3Proxy and embedded PostgreSQL, measured two ways in one run.
 *
 * <p>Read fan-out: every GetObject is delayed by a fixed {@link #GET_LATENCY} (a client
 * interceptor standing in for a remote bucket), then a full read of a four-part document is timed
 * against a read of one part of the same document. Part fetches run concurrently, so the ratio
 * should stay near 1 (goal: at most 1.5); fetched one after another it would be near 4.
 *
 * <p>Save throughput: full saves (every part PUT) against partial saves (one part PUT, the other
 * three carried by server-side CopyObject), sequentially, on the same machine in the same run.
 *
 * <p>{@code -Dbench.quick=true} shortens both to a smoke run.
 */
public final class RepositoryBenchmarkMain {

  static final Duration GET_LATENCY = Duration.ofMillis(25);
  static final int BLOB_BYTES = 256 * 1024;
  static final String ACCOUNT = "bench";
  static final String GRAPH = "bench-graph";

  private RepositoryBenchmarkMain() {}

  public static void main(String[] args) throws Exception {
    boolean quick = Boolean.getBoolean("bench.quick");
    int reads = quick ? 10 : 60;
    int saves = quick ? 20 : 150;
    try (StoreHarness h = StoreHarness.start(List.of(new GetLatency(GET_LATENCY)))) {
      h.store.onAccountEvent(StoreHarness.platformAccount(ACCOUNT));
      // CORE, BLOBS, PARSED and one chunk set: four part objects.
      PipeDoc doc = SampleDocs.document("bench-doc", 42, BLOB_BYTES, "chunker-a");
      DocumentReference ref =
          h.store.save(Saves.pipeline(ACCOUNT, GRAPH, "source", doc).build()).getDocumentRef();
      GetPipeDocRequest onePart = Saves.read(ref, PipeDocPart.PIPE_DOC_PART_PARSED);
      GetPipeDocRequest allParts = Saves.read(ref);
      if (h.store.get(allParts).getPipedoc().getSerializedSize() != doc.getSerializedSize()) {
        throw new IllegalStateException("the full read did not return the document");
      }

      for (int i = 0; i < 10; i++) {
        h.store.get(onePart);
        h.store.get(allParts);
      }
      long[] single = new long[reads];
      long[] full = new long[reads];
      for (int i = 0; i < reads; i++) {
        // Interleaved, so drift in machine load hits both series alike.
        single[i] = time(() -> h.store.get(onePart));
        full[i] = time(() -> h.store.get(allParts));
      }
      double singleMs = median(single) / 1e6;
      double fullMs = median(full) / 1e6;

      int warm = quick ? 5 : 20;
      saveFull(h, doc, "warm-full", warm);
      savePartial(h, doc, ref, "warm-partial", warm);
      long fullNanos = 0;
      long partialNanos = 0;
      for (int round = 0; round < 2; round++) {
        fullNanos += saveFull(h, doc, "full-" + round, saves / 2);
        partialNanos += savePartial(h, doc, ref, "partial-" + round, saves / 2);
      }
      int measured = 2 * (saves / 2);
      double fullPerSecond = measured / (fullNanos / 1e9);
      double partialPerSecond = measured / (partialNanos / 1e9);

      System.out.printf(
          Locale.ROOT,
          "%nrepository read fan-out: GetObject delayed %d ms per call,"
              + " %d reads each, medians%n",
          GET_LATENCY.toMillis(),
          reads);
      System.out.printf(
          Locale.ROOT, "  one part (PARSED, 1 GET)     %8.1f ms   <- baseline%n", singleMs);
      System.out.printf(Locale.ROOT, "  full document (4 GETs)       %8.1f ms%n", fullMs);
      System.out.printf(
          Locale.ROOT,
          "  full / one part              %8.2f     (goal <= 1.5;"
              + " serial fetches would be ~4)%n",
          fullMs / singleMs);
      System.out.printf(
          Locale.ROOT,
          "repository saves: %d sequential saves each, %d KiB source"
              + " blob, no added latency on PUT or COPY%n",
          measured,
          BLOB_BYTES / 1024);
      System.out.printf(
          Locale.ROOT,
          "  full saves (4 PUTs)          %8.1f saves/s   <- baseline%n",
          fullPerSecond);
      System.out.printf(
          Locale.ROOT,
          "  partial saves (1 PUT + 3 server-side copies)" + " %8.1f saves/s%n",
          partialPerSecond);
      System.out.printf(
          Locale.ROOT, "  partial / full               %8.2f%n", partialPerSecond / fullPerSecond);
    }
  }

  private static long saveFull(StoreHarness h, PipeDoc doc, String node, int count) {
    long start = System.nanoTime();
    for (int i = 0; i < count; i++) {
      h.store.save(Saves.pipeline(ACCOUNT, GRAPH, node + "-" + i, doc).build());
    }
    return System.nanoTime() - start;
  }

  private static long savePartial(
      StoreHarness h, PipeDoc doc, DocumentReference source, String node, int count) {
    long start = System.nanoTime();
    for (int i = 0; i < count; i++) {
      h.store.save(
          Saves.partial(
                  Saves.pipeline(ACCOUNT, GRAPH, node + "-" + i, doc),
                  source,
                  PipeDocPart.PIPE_DOC_PART_PARSED)
              .build());
    }
    return System.nanoTime() - start;
  }

  private static long time(Runnable call) {
    long start = System.nanoTime();
    call.run();
    return System.nanoTime() - start;
  }

  private static double median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    int mid = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2.0;
  }
}
