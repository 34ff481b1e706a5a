package dev.protomolt.cli;

import dev.protomolt.engine.graphs.PostgresDatasourceBindings;
import dev.protomolt.engine.reclaim.ReclaimService;
import dev.protomolt.lambda.EventHandler;
import dev.protomolt.lambda.NamedHandlers;
import dev.protomolt.lambda.accounts.AccountProvisioning;
import dev.protomolt.lambda.accounts.IntakeNotificationRules;
import dev.protomolt.localstack.cloud.LocalCloud;
import dev.protomolt.localstack.kafka.MskEventSourceMapping;
import dev.protomolt.repository.PipeDocStore;
import dev.protomolt.repository.ledger.IndexingLedger;
import dev.protomolt.repository.postgres.PostgresDriveDirectory;
import dev.protomolt.repository.purge.DeletionRequests;
import dev.protomolt.repository.purge.StoragePurger;
import dev.protomolt.repository.s3.S3BlobStore;
import dev.protomolt.repository.s3.S3Clients;
import java.time.Clock;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.sql.DataSource;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * The MSK-triggered functions of the stack on the local cloud: each deployed handler class
 * (functions/lambda {@link NamedHandlers}) registered under its function name, and one local MSK
 * event-source mapping per (function, topic) pair, one consumer group per function, exactly as
 * infra/cdk's {@code FunctionTriggers} declares them in {@code EnvironmentStack}. Settlement is left
 * out on purpose (decision 0966), and the scheduled reconciler and retention have no local schedule.
 */
final class PlatformEventSources {

  /** One MSK mapping: {@code function} consumes {@code topic}. */
  record Trigger(String function, String topic) {}

  /** The stack's Kafka triggers, in its order, less settlement (decision 0966). */
  static final List<Trigger> TRIGGERS =
      List.of(
          new Trigger("purge", "storage-purge"),
          new Trigger("reclaim", "reclaim-requests"),
          new Trigger("reclaim", "document-deleted"),
          new Trigger("indexing-ledger", KafkaReceiptSink.TOPIC),
          new Trigger("account-events", "account-events"));

  private PlatformEventSources() {}

  /** The consumer group of {@code function}: one per function, as the stack names them. */
  static String group(String function) {
    return "protomolt-local-" + function;
  }

  /**
   * Creates the triggers' topics, registers their functions over the platform's own store and
   * clients, and starts one poller per trigger. The pollers join their groups in the background,
   * so start-up does not wait for them; a new group reads from the oldest record.
   *
   * @param intakeRules how the account-events function adds an account's intake notification
   */
  static void wire(
      LocalCloud cloud,
      PipeDocStore store,
      S3Clients s3,
      Clock clock,
      IntakeNotificationRules intakeRules) {
    DataSource ds = cloud.database();
    PostgresDriveDirectory drives = new PostgresDriveDirectory(ds);
    register(
        cloud,
        "purge",
        NamedHandlers.purge(new StoragePurger(ds, new S3BlobStore(s3), drives, clock)));
    register(
        cloud,
        "reclaim",
        NamedHandlers.reclaim(new ReclaimService(store), new DeletionRequests(store)));
    register(cloud, "indexing-ledger", NamedHandlers.indexingLedger(new IndexingLedger(ds, clock)));
    register(
        cloud,
        "account-events",
        NamedHandlers.accountEvents(
            new AccountProvisioning(
                store, drives::find, intakeRules, new PostgresDatasourceBindings(ds)::bind)));
    Set<String> topics = new LinkedHashSet<>();
    TRIGGERS.forEach(t -> topics.add(t.topic()));
    createTopics(cloud.endpoints().kafkaBootstrapServers(), topics);
    for (Trigger t : TRIGGERS) {
      cloud.addMskEventSource(
          new MskEventSourceMapping(
              t.function(),
              List.of(t.topic()),
              group(t.function()),
              MskEventSourceMapping.DEFAULT_BATCH_SIZE));
    }
  }

  private static void register(LocalCloud cloud, String name, EventHandler handler) {
    cloud.lambdas().register(name, (event, context) -> handler.handleText(event));
  }

  /**
   * A consumer subscribed to a topic that does not exist yet would only see it at its next
   * metadata refresh (minutes), so the topics exist before the pollers start.
   */
  private static void createTopics(String bootstrap, Set<String> topics) {
    try (Admin kafka =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      var created =
          kafka
              .createTopics(topics.stream().map(t -> new NewTopic(t, 1, (short) 1)).toList())
              .values();
      for (var entry : created.entrySet()) {
        try {
          entry.getValue().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
          if (!(e.getCause() instanceof TopicExistsException)) {
            throw new IllegalStateException(
                "cannot create topic " + entry.getKey() + ": " + e.getCause(), e.getCause());
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while creating the event topics", e);
    } catch (TimeoutException e) {
      throw new IllegalStateException("Kafka did not create the event topics within 30 s", e);
    }
  }
}
