package dev.protomolt.module.samples.sink;

import dev.protomolt.module.sdk.ModuleRunner;
import dev.protomolt.proto.config.v1.IndexPlan;
import dev.protomolt.proto.engine.v1.DeclareIndexPlansRequest;
import dev.protomolt.proto.engine.v1.IndexPlanServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.concurrent.TimeUnit;

/**
 * Runs the sample index sink against a gateway: {@code [--gateway HOST:PORT] [--concurrency N]
 * [--index DIR] [--receipts FILE]}. Defaults: {@code data/index} and {@code DIR/receipts.jsonl}.
 */
public final class IndexSinkModule {

  public static final String MODULE_ID = "index-sink";
  public static final String INDEX_NAME = "protomolt-sample";

  /**
   * The one index plan this sink writes: the local Lucene index, title, body and chunk vectors of
   * whatever dimension the embedder chose. A graph's sink node names it in {@code index_plan_ids}.
   */
  public static final IndexPlan PLAN =
      IndexPlan.newBuilder()
          .setPlanId(INDEX_NAME)
          .setModuleId(MODULE_ID)
          .setIndexName(INDEX_NAME)
          .setDescription("local Lucene index: title, body and embedded chunks")
          .build();

  private IndexSinkModule() {}

  public static void main(String[] args) throws Exception {
    try {
      declarePlan(ModuleRunner.Options.parse(args, 2).gateway());
    } catch (IllegalArgumentException badOptions) {
      // ModuleRunner.main below reports the bad option and exits; nothing to declare against.
    }
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

  /**
   * Declares {@link #PLAN} in the platform's index-plan registry through the gateway, so PRODUCTION
   * graphs may name it. A gateway without the registry door is reported and the sink runs anyway:
   * indexing does not depend on the declaration, only deploys do.
   */
  private static void declarePlan(String gateway) throws InterruptedException {
    // Signed as the module's own principal and over the same transport as its work streams.
    ManagedChannel channel = ModuleRunner.channel(gateway, System.getenv());
    try {
      IndexPlanServiceGrpc.newBlockingStub(channel)
          .withDeadlineAfter(10, TimeUnit.SECONDS)
          .declareIndexPlans(DeclareIndexPlansRequest.newBuilder().addPlans(PLAN).build());
      System.out.println("declared index plan '" + PLAN.getPlanId() + "'");
    } catch (StatusRuntimeException e) {
      System.err.println(
          "index plan '"
              + PLAN.getPlanId()
              + "' not declared ("
              + e.getStatus()
              + "); PRODUCTION graphs naming it will be refused until it is");
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
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
