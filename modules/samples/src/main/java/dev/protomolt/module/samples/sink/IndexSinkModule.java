package dev.protomolt.module.samples.sink;

import dev.protomolt.module.sdk.ModuleRunner;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;

/**
 * Runs the sample index sink against a gateway: {@code [--gateway HOST:PORT] [--concurrency N]
 * [--index DIR] [--receipts FILE]}. Defaults: {@code data/index} and {@code DIR/receipts.jsonl}.
 */
public final class IndexSinkModule {

  public static final String MODULE_ID = "index-sink";
  public static final String INDEX_NAME = "protomolt-sample";

  private IndexSinkModule() {}

  public static void main(String[] args) throws Exception {
    Path indexDir = Path.of(option(args, "--index", "data/index"));
    Path receiptsFile =
        Path.of(option(args, "--receipts", indexDir.resolve("receipts.jsonl").toString()));
    try (LuceneIndex index = LuceneIndex.open(indexDir)) {
      DocumentIndexSink sink =
          new DocumentIndexSink(
              index,
              new JsonLinesReceiptSink(receiptsFile),
              INDEX_NAME,
              Clock.systemUTC(),
              new UlidGenerator(Clock.systemUTC(), new SecureRandom()));
      System.out.println(
          "indexing into "
              + indexDir.toAbsolutePath()
              + ", receipts to "
              + receiptsFile.toAbsolutePath());
      ModuleRunner.main(MODULE_ID, sink, args, 2);
    }
  }

  private static String option(String[] args, String name, String fallback) {
    for (int i = 0; i < args.length - 1; i++) {
      if (args[i].equals(name)) {
        return args[i + 1];
      }
    }
    return fallback;
  }
}
