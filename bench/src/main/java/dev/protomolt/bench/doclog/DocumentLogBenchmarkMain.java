package dev.protomolt.bench.doclog;

import dev.protomolt.core.doclog.DocumentLog;
import dev.protomolt.core.doclog.LogKey;
import dev.protomolt.core.doclog.WindowSpec;
import dev.protomolt.repository.doclog.PostgresDocumentLogStore;
import dev.protomolt.repository.doclog.PostgresLogPartIndex;
import dev.protomolt.repository.doclog.S3LogOriginals;
import dev.protomolt.repository.fixtures.PostgresFixture;
import dev.protomolt.repository.fixtures.S3ProxyFixture;
import dev.protomolt.repository.s3.S3Clients;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Document logs on embedded PostgreSQL and S3Proxy, three figures each beside a baseline measured
 * in the same run:
 *
 * <ol>
 *   <li>appended lines per second, one {@code DocumentLog.append} per line (windows cut, parts
 *       written and indexed as they complete), against one plain {@code INSERT} per line of the
 *       same text into a table with no index but its key;
 *   <li>the seal of a 5,000-part log (reassemble from the parts, hash, store the original in S3,
 *       move the row), against one plain S3 PUT of the same bytes;
 *   <li>search latency while a writer appends to other logs, against the same queries on an idle
 *       table.
 * </ol>
 *
 * <p>{@code -Dbench.quick=true} shortens every part to a smoke run.
 */
public final class DocumentLogBenchmarkMain {

  static final String BUCKET = "bench-logs";

  private DocumentLogBenchmarkMain() {}

  public static void main(String[] args) throws Exception {
    boolean quick = Boolean.getBoolean("bench.quick");
    int lines = quick ? 2_000 : 20_000;
    int sealParts = quick ? 500 : 5_000;
    int searches = quick ? 50 : 400;
    try (PostgresFixture db = PostgresFixture.start();
        S3ProxyFixture s3 = S3ProxyFixture.start("bench-key", "bench-secret");
        S3Clients clients = new S3Clients(Map.of("platform", s3.settings()), List.of())) {
      s3.createBucket(BUCKET);
      DataSource ds = db.dataSource();
      PostgresLogPartIndex index = new PostgresLogPartIndex(ds);
      DocumentLog log =
          new DocumentLog(
              new PostgresDocumentLogStore(ds),
              index,
              new S3LogOriginals(clients, BUCKET, "platform", S3ProxyFixture.REGION));

      appends(ds, log, lines);
      seal(log, s3, sealParts);
      search(ds, log, index, searches);
    }
  }

  /** One line of a build log: numbered, with words that repeat across lines like real logs. */
  static String line(int i) {
    return String.format(
        Locale.ROOT,
        "%08d [worker-%d] step %d of module m%d compiled %d classes in %d ms%n",
        i,
        i % 8,
        i % 97,
        i % 13,
        i % 300,
        i % 1000);
  }

  private static void appends(DataSource ds, DocumentLog log, int lines) throws SQLException {
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE bench_log_lines (collection TEXT, path TEXT, line_no INTEGER,"
              + " text_utf16 BYTEA, PRIMARY KEY (collection, path, line_no))");
    }
    // Warm both paths (JIT, pool, plans) on logs the measurement does not use.
    appendLines(log, new LogKey("bench", "warm/appends"), lines / 10);
    insertLines(ds, "warm/inserts", lines / 10);

    long logNanos = 0;
    long insertNanos = 0;
    for (int round = 0; round < 2; round++) {
      // Interleaved halves, so drift in machine load hits both series alike.
      long t0 = System.nanoTime();
      appendLines(log, new LogKey("bench", "appends/" + round), lines / 2);
      long t1 = System.nanoTime();
      insertLines(ds, "inserts/" + round, lines / 2);
      long t2 = System.nanoTime();
      logNanos += t1 - t0;
      insertNanos += t2 - t1;
    }
    int measured = 2 * (lines / 2);
    double logRate = measured / (logNanos / 1e9);
    double insertRate = measured / (insertNanos / 1e9);
    System.out.printf(
        Locale.ROOT,
        "appends: %,d lines, DocumentLog.append %.0f lines/s, plain INSERT %.0f lines/s"
            + " (baseline), append time / INSERT time %.2f%n",
        measured,
        logRate,
        insertRate,
        insertRate / logRate);
  }

  private static void appendLines(DocumentLog log, LogKey key, int lines) {
    log.open(key, WindowSpec.DEFAULT);
    long offset = 0;
    for (int i = 0; i < lines; i++) {
      String text = line(i);
      log.append(key, text, offset);
      offset += text.length();
    }
  }

  private static void insertLines(DataSource ds, String path, int lines) throws SQLException {
    try (Connection c = ds.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "INSERT INTO bench_log_lines (collection, path, line_no, text_utf16)"
                    + " VALUES (?, ?, ?, ?)")) {
      for (int i = 0; i < lines; i++) {
        s.setString(1, "bench");
        s.setString(2, path);
        s.setInt(3, i);
        s.setBytes(4, line(i).getBytes(StandardCharsets.UTF_16BE));
        s.executeUpdate();
      }
    }
  }

  private static void seal(DocumentLog log, S3ProxyFixture s3, int parts) {
    LogKey key = new LogKey("bench", "seal/big");
    log.open(key, WindowSpec.DEFAULT);
    // Built in large appends: the seal, not the build, is measured. Each part holds 850 new chars.
    StringBuilder chunk = new StringBuilder();
    long offset = 0;
    long target = (long) parts * WindowSpec.DEFAULT.step();
    for (int i = 0; offset + chunk.length() < target; i++) {
      chunk.append(line(i));
      if (chunk.length() >= 200_000) {
        log.append(key, chunk.toString(), offset);
        offset += chunk.length();
        chunk.setLength(0);
      }
    }
    log.append(key, chunk.toString(), offset);
    String text = log.read(key).orElseThrow();
    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);

    long t0 = System.nanoTime();
    DocumentLog.Sealed sealed = log.seal(key);
    long sealNanos = System.nanoTime() - t0;

    long putNanos;
    try (S3Client admin = s3.adminClient()) {
      // One warm PUT, then the measured one of the same bytes to another key.
      admin.putObject(b -> b.bucket(BUCKET).key("baseline/warm"), RequestBody.fromBytes(utf8));
      long p0 = System.nanoTime();
      admin.putObject(b -> b.bucket(BUCKET).key("baseline/put"), RequestBody.fromBytes(utf8));
      putNanos = System.nanoTime() - p0;
    }
    System.out.printf(
        Locale.ROOT,
        "seal: %,d parts, %,d UTF-8 bytes, seal %.0f ms, plain S3 PUT of the same bytes %.0f ms"
            + " (baseline), seal / PUT %.2f%n",
        sealed.parts(),
        utf8.length,
        sealNanos / 1e6,
        putNanos / 1e6,
        (double) sealNanos / putNanos);
  }

  private static void search(
      DataSource ds, DocumentLog log, PostgresLogPartIndex index, int searches)
      throws InterruptedException, SQLException {
    // A corpus of sealed logs to search, then one query word pair a handful of parts hold.
    for (int l = 0; l < 40; l++) {
      LogKey key = new LogKey("bench", "search/corpus-" + l);
      appendLines(log, key, 400);
      log.seal(key);
    }
    String query = "worker-3 m5";
    if (index.query(query, 20).isEmpty()) {
      throw new IllegalStateException("the query \"" + query + "\" finds nothing to measure");
    }
    for (int i = 0; i < 20; i++) {
      index.query(query, 20);
    }
    long parts;
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement();
        var r = s.executeQuery("SELECT count(*) FROM document_log_index")) {
      r.next();
      parts = r.getLong(1);
    }
    long[] idle = new long[searches];
    for (int i = 0; i < searches; i++) {
      idle[i] = time(() -> index.query(query, 20));
    }

    AtomicBoolean writing = new AtomicBoolean(true);
    AtomicLong written = new AtomicLong();
    Thread writer =
        Thread.ofPlatform()
            .name("bench-log-writer")
            .start(
                () -> {
                  LogKey key = new LogKey("bench", "search/live");
                  log.open(key, WindowSpec.DEFAULT);
                  long offset = 0;
                  for (int i = 0; writing.get(); i++) {
                    String text = line(i);
                    log.append(key, text, offset);
                    offset += text.length();
                    written.incrementAndGet();
                  }
                });
    long[] busy = new long[searches];
    for (int i = 0; i < searches; i++) {
      busy[i] = time(() -> index.query(query, 20));
    }
    writing.set(false);
    writer.join();
    System.out.printf(
        Locale.ROOT,
        "search: %d queries for \"%s\" over %,d indexed parts; idle median %.2f ms p95 %.2f ms"
            + " (baseline); while writing (%,d lines appended meanwhile) median %.2f ms p95 %.2f"
            + " ms; median while writing / idle %.2f%n",
        searches,
        query,
        parts,
        percentile(idle, 50) / 1e6,
        percentile(idle, 95) / 1e6,
        written.get(),
        percentile(busy, 50) / 1e6,
        percentile(busy, 95) / 1e6,
        (double) percentile(busy, 50) / percentile(idle, 50));
  }

  private static long time(Runnable call) {
    long t0 = System.nanoTime();
    call.run();
    return System.nanoTime() - t0;
  }

  private static long percentile(long[] values, int p) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[Math.min(sorted.length - 1, sorted.length * p / 100)];
  }
}
