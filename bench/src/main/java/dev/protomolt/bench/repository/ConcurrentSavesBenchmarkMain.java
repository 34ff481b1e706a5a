package dev.protomolt.bench.repository;

import dev.protomolt.core.identity.NodeCoordinates;
import dev.protomolt.core.parts.PartMask;
import dev.protomolt.core.store.Drive;
import dev.protomolt.core.store.DriveKind;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.repository.PipeDocStore;
import dev.protomolt.repository.PipeDocStoreException;
import dev.protomolt.repository.fixtures.SampleDocs;
import dev.protomolt.repository.fixtures.Saves;
import dev.protomolt.repository.fixtures.StoreHarness;
import dev.protomolt.repository.s3.S3BlobStore;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Saves per second with {@link #WRITERS} concurrent writers, at one hot address and across many
 * addresses, for the layout before write tokens ({@link FixedKeySaves}: fixed keys, plain PUTs,
 * one upsert; the baseline) and after ({@code PipeDocStore.save}: a write token, create-only PUTs
 * under the token's segment, a locked commit recording the superseded state), all in one run on
 * S3Proxy and embedded PostgreSQL. Rounds alternate so drift in machine load hits both alike.
 * After each hot-address round the address is read once: the baseline's final state may be torn.
 *
 * <p>{@code -Dbench.quick=true} shortens it to a smoke run.
 */
public final class ConcurrentSavesBenchmarkMain {

  static final int WRITERS = 8;
  static final int BLOB_BYTES = 16 * 1024;
  static final String ACCOUNT = "hot-bench";
  static final String GRAPH = "hot-graph";

  private ConcurrentSavesBenchmarkMain() {}

  public static void main(String[] args) throws Exception {
    boolean quick = Boolean.getBoolean("bench.quick");
    int perWriter = quick ? 10 : 60;
    int rounds = quick ? 1 : 3;
    try (StoreHarness h = StoreHarness.start()) {
      h.store.onAccountEvent(StoreHarness.platformAccount(ACCOUNT));
      Drive drive = h.drives.find(ACCOUNT, DriveKind.PIPELINE).orElseThrow();
      FixedKeySaves before = new FixedKeySaves(h.ledger, new S3BlobStore(h.clients), drive);
      PipeDocStore after = h.store;
      Instant now = StoreHarness.NOW;

      // Warm both paths (JIT, connection pools, S3Proxy) before anything is timed.
      run(
          perWriter / 2,
          (w, i) -> {
            NodeCoordinates at = at("warm-before", w, i);
            before.save(at, doc(at, w, i), now);
          });
      run(perWriter / 2, (w, i) -> saveAfter(after, at("warm-after", w, i), w, i));

      double[] hotBefore = new double[rounds];
      double[] hotAfter = new double[rounds];
      double[] manyBefore = new double[rounds];
      double[] manyAfter = new double[rounds];
      int tornBefore = 0;
      int tornAfter = 0;
      for (int r = 0; r < rounds; r++) {
        String round = "r" + r;
        NodeCoordinates hotB = new NodeCoordinates("hot-" + round, "before", ACCOUNT, GRAPH);
        NodeCoordinates hotA = new NodeCoordinates("hot-" + round, "after", ACCOUNT, GRAPH);
        hotBefore[r] = run(perWriter, (w, i) -> before.save(hotB, doc(hotB, w, i), now));
        tornBefore += torn(after, hotB);
        hotAfter[r] = run(perWriter, (w, i) -> saveAfter(after, hotA, w, i));
        tornAfter += torn(after, hotA);
        manyBefore[r] =
            run(
                perWriter,
                (w, i) -> {
                  NodeCoordinates at = at("many-before-" + round, w, i);
                  before.save(at, doc(at, w, i), now);
                });
        manyAfter[r] =
            run(perWriter, (w, i) -> saveAfter(after, at("many-after-" + round, w, i), w, i));
      }

      double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
      System.out.printf(
          Locale.ROOT,
          "%nconcurrent saves: %d writers x %d saves per round, %d round(s), %d KiB source blob,"
              + " load average %.1f at the end%n",
          WRITERS,
          perWriter,
          rounds,
          BLOB_BYTES / 1024,
          load);
      print("one hot address", hotBefore, hotAfter);
      print("many addresses ", manyBefore, manyAfter);
      System.out.printf(
          Locale.ROOT,
          "  torn final states at the hot address: before %d of %d, after %d of %d%n",
          tornBefore,
          rounds,
          tornAfter,
          rounds);
    }
  }

  private static void print(String what, double[] before, double[] after) {
    double b = mean(before);
    double a = mean(after);
    System.out.printf(
        Locale.ROOT,
        "  %s  before (fixed keys) %8.1f saves/s   <- baseline   after (write tokens) %8.1f"
            + " saves/s   after / before %5.2f%n",
        what,
        b,
        a,
        a / b);
  }

  private static void saveAfter(PipeDocStore store, NodeCoordinates at, int writer, int i) {
    store.save(
        Saves.pipeline(at.accountId(), at.graphId(), at.graphAddressId(), doc(at, writer, i))
            .build());
  }

  /** 1 when the stored state at {@code at} no longer reads back whole, else 0. */
  private static int torn(PipeDocStore store, NodeCoordinates at) {
    try {
      store.read(at, PartMask.ALL);
      return 0;
    } catch (PipeDocStoreException.PartUnreadable e) {
      return 1;
    }
  }

  private static NodeCoordinates at(String prefix, int writer, int i) {
    return new NodeCoordinates(prefix + "-" + writer + "-" + i, "node", ACCOUNT, GRAPH);
  }

  /** Different contents and part layouts per save, so overwrites at one address really differ. */
  private static PipeDoc doc(NodeCoordinates at, int writer, int i) {
    String[] sets = i % 2 == 0 ? new String[] {"set-a"} : new String[] {"set-a", "set-b"};
    return SampleDocs.document(
        at.docId(), writer * 10_000L + i, BLOB_BYTES + (writer * 97 + i * 13) % 4096, sets);
  }

  @FunctionalInterface
  private interface Save {
    void run(int writer, int i) throws Exception;
  }

  /** Runs {@link #WRITERS} writers of {@code perWriter} saves each; returns saves per second. */
  private static double run(int perWriter, Save save) throws Exception {
    CountDownLatch go = new CountDownLatch(1);
    List<Future<?>> writers = new ArrayList<>();
    long start;
    try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        writers.add(
            pool.submit(
                () -> {
                  go.await();
                  for (int i = 0; i < perWriter; i++) {
                    save.run(writer, i);
                  }
                  return null;
                }));
      }
      start = System.nanoTime();
      go.countDown();
      for (Future<?> f : writers) {
        f.get();
      }
    }
    return WRITERS * perWriter / ((System.nanoTime() - start) / 1e9);
  }

  private static double mean(double[] values) {
    double sum = 0;
    for (double v : values) {
      sum += v;
    }
    return sum / values.length;
  }
}
