package dev.protomolt.lambda;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.protomolt.core.metrics.MetricsSink;
import dev.protomolt.core.store.Drive;
import dev.protomolt.db.Migrations.MigrationReport;
import dev.protomolt.engine.activation.GraphActivationService;
import dev.protomolt.engine.admission.IntakeService;
import dev.protomolt.engine.deadletters.DeadLetterAdmin;
import dev.protomolt.engine.graphs.DraftService;
import dev.protomolt.engine.graphs.GraphAdminService;
import dev.protomolt.engine.hop.CompleteService;
import dev.protomolt.engine.hop.DispatchService;
import dev.protomolt.engine.hop.DlqService;
import dev.protomolt.engine.hop.PrepareService;
import dev.protomolt.engine.reclaim.ReclaimService;
import dev.protomolt.engine.replay.ReplayPages;
import dev.protomolt.engine.replay.ReplayValidation;
import dev.protomolt.lambda.accounts.AccountProvisioning;
import dev.protomolt.lambda.console.ConsoleActions;
import dev.protomolt.lambda.console.ConsoleApiHandler;
import dev.protomolt.lambda.console.OperatorCheck;
import dev.protomolt.lambda.handlers.DlqAdminHandler;
import dev.protomolt.lambda.handlers.GraphAdminHandler;
import dev.protomolt.lambda.handlers.HopHandler;
import dev.protomolt.lambda.handlers.IntakeHandler;
import dev.protomolt.lambda.handlers.KafkaBatchHandler;
import dev.protomolt.lambda.handlers.MigrateHandler;
import dev.protomolt.lambda.handlers.MigrateHandler.TopicSpec;
import dev.protomolt.lambda.handlers.ReclaimHandler;
import dev.protomolt.lambda.handlers.ReplayPageHandler;
import dev.protomolt.lambda.handlers.ReplayValidateHandler;
import dev.protomolt.lambda.handlers.ScheduledHandler;
import dev.protomolt.names.PlatformMetric;
import dev.protomolt.proto.events.v1.AccountEvent;
import dev.protomolt.proto.events.v1.DocumentIndexedEvent;
import dev.protomolt.proto.events.v1.StoragePurgeEvent;
import dev.protomolt.repository.ledger.IndexingLedger;
import dev.protomolt.repository.ledger.IndexingReceipts;
import dev.protomolt.repository.purge.DeletionRequests;
import dev.protomolt.repository.purge.PurgeReport;
import dev.protomolt.repository.purge.StoragePurger;
import dev.protomolt.repository.reconcile.StorageReconciler;
import dev.protomolt.repository.retention.RetentionSweeper;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Builds each named handler from services that are already wired, in plain Java: the Quarkus app
 * calls these with services built from the environment, the local cloud with its own, so both run
 * the same handler classes. The names are the functions' names in the stack (decision 0654).
 */
public final class NamedHandlers {

  /** Every handler name the zip serves, as {@code QUARKUS_LAMBDA_HANDLER} spells it. */
  public static final List<String> NAMES =
      List.of(
          "graph-admin",
          "intake",
          "prepare",
          "dispatch",
          "complete",
          "dlq",
          "purge",
          "reclaim",
          "indexing-ledger",
          "settlement",
          "account-events",
          "reconciler",
          "retention",
          "migrate",
          "replay-validate",
          "replay-page",
          "console-api",
          "dlq-admin");

  private NamedHandlers() {}

  public static EventHandler graphAdmin(
      GraphAdminService admin, GraphActivationService activation) {
    return new GraphAdminHandler(admin, activation);
  }

  public static EventHandler intake(IntakeService intake) {
    return new IntakeHandler(intake);
  }

  public static EventHandler prepare(PrepareService prepare) {
    return new HopHandler("prepare", prepare::handle);
  }

  public static EventHandler dispatch(DispatchService dispatch) {
    return new HopHandler("dispatch", dispatch::handle);
  }

  public static EventHandler complete(CompleteService complete) {
    return new HopHandler("complete", complete::handle);
  }

  public static EventHandler dlq(DlqService dlq) {
    return new HopHandler("dlq", dlq::handle);
  }

  /** The operators' door to dead letters: list, show, reprocess (decision 1721). */
  public static EventHandler dlqAdmin(DeadLetterAdmin admin) {
    return new DlqAdminHandler(admin);
  }

  /** The replay state machine's first state: refusals, the version, the audit row (decision 1700). */
  public static EventHandler replayValidate(ReplayValidation validation) {
    return new ReplayValidateHandler(validation);
  }

  /** One keyset page of the replay state machine (decision 1700). */
  public static EventHandler replayPage(ReplayPages pages) {
    return new ReplayPageHandler(pages);
  }

  /**
   * The console's JSON API behind an HTTP API (decision 1770).
   *
   * @param drafts null where no drafts table is wired: the draft routes answer 501
   */
  public static EventHandler consoleApi(
      OperatorCheck operators,
      GraphAdminService admin,
      DraftService drafts,
      ConsoleApiHandler.DocumentRunsSource runs,
      Supplier<List<String>> modules) {
    return new ConsoleApiHandler(operators, admin, drafts, runs, modules);
  }

  /** {@code console-api} with its actions: replay, redrive and dead-letter reprocessing. */
  public static EventHandler consoleApi(
      OperatorCheck operators,
      GraphAdminService admin,
      DraftService drafts,
      ConsoleApiHandler.DocumentRunsSource runs,
      Supplier<List<String>> modules,
      ConsoleActions actions) {
    return new ConsoleApiHandler(operators, admin, drafts, runs, modules, actions);
  }

  /** {@code storage-purge} records, purged as one batch. */
  public static EventHandler purge(StoragePurger purger) {
    return purge(purger, (metric, value, dimensions) -> {});
  }

  /**
   * {@code storage-purge} records, purged as one batch; each batch emits {@code PurgeFailures}, the
   * rows whose stored parts could not all be deleted (zero included, so the series is continuous).
   */
  public static EventHandler purge(StoragePurger purger, MetricsSink metrics) {
    return new KafkaBatchHandler<>(
        "purge",
        "StoragePurgeEvent",
        StoragePurgeEvent.parser(),
        batch -> {
          PurgeReport report = purger.purge(batch);
          metrics.emit(PlatformMetric.PURGE_FAILURES, report.failed().size());
          return tree(report);
        });
  }

  /** {@code reclaim-requests} (CACHE copies a settled hop consumed) and {@code document-deleted} records. */
  public static EventHandler reclaim(ReclaimService reclaims, DeletionRequests deletions) {
    return new ReclaimHandler(reclaims, deletions);
  }

  /** {@code indexing-receipts} records into the indexing ledger. */
  public static EventHandler indexingLedger(IndexingLedger ledger) {
    return new KafkaBatchHandler<>(
        "indexing-ledger",
        "DocumentIndexedEvent",
        DocumentIndexedEvent.parser(),
        batch -> tree(ledger.apply(batch)));
  }

  /**
   * {@code indexing-receipts} records, settling sources. The receipts go through the ledger first
   * (an idempotent upsert), so settlement decides from the ledger whichever of the two consumer
   * groups reads a receipt first (decision 0832).
   */
  public static EventHandler settlement(IndexingReceipts receipts) {
    return new KafkaBatchHandler<>(
        "settlement",
        "DocumentIndexedEvent",
        DocumentIndexedEvent.parser(),
        batch -> tree(receipts.handle(batch)));
  }

  /**
   * {@code account-events} records: drives provisioned, accounts activated or suspended, and each
   * provisioned account's intake notification rule (decision 0660).
   */
  public static EventHandler accountEvents(AccountProvisioning provisioning) {
    return new KafkaBatchHandler<>(
        "account-events",
        "AccountEvent",
        AccountEvent.parser(),
        batch -> {
          int rules = provisioning.apply(batch);
          ObjectNode applied = EventJson.reply();
          applied.put("applied", batch.size());
          applied.put("intakeRulesEnsured", rules);
          return applied;
        });
  }

  /**
   * Every drive {@code drives} lists, reconciled in turn.
   *
   * @param drives the drives to look at, read when the schedule fires
   */
  public static EventHandler reconciler(
      StorageReconciler reconciler, Supplier<List<Drive>> drives) {
    return new ScheduledHandler(
        "reconciler",
        () -> {
          var reports = EventJson.MAPPER.createArrayNode();
          for (Drive drive : drives.get()) {
            reports.add(tree(reconciler.reconcile(drive)));
          }
          ObjectNode out = EventJson.reply();
          out.set("drives", reports);
          return out;
        });
  }

  /** One sweep of at most {@code limit} expired pipeline copies. */
  public static EventHandler retention(RetentionSweeper sweeper, int limit) {
    return new ScheduledHandler(
        "retention",
        () -> {
          ObjectNode out = EventJson.reply();
          out.put("enabled", sweeper.enabled());
          out.put("tombstoned", sweeper.sweep(limit));
          return out;
        });
  }

  /**
   * @param schema applies the schema (the migrate function's {@code Migrations.apply})
   * @param topics creates the missing topics, returning the ones it created
   */
  public static EventHandler migrate(
      Supplier<MigrationReport> schema, Function<List<TopicSpec>, List<String>> topics) {
    return new MigrateHandler(schema, topics);
  }

  private static JsonNode tree(Object report) {
    return EventJson.MAPPER.valueToTree(report);
  }
}
