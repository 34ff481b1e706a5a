package dev.protomolt.lambda.wiring;

import dev.protomolt.lambda.handlers.MigrateHandler.TopicSpec;
import dev.protomolt.names.PlatformTopic;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Creates the topics the stack declares that do not exist yet (decision 0651). An existing topic
 * is left exactly as it is: never deleted, never shrunk, never re-partitioned.
 */
final class KafkaTopics {

  private static final long TIMEOUT_SECONDS = 60;

  private final Admin admin;

  KafkaTopics(Admin admin) {
    this.admin = Objects.requireNonNull(admin, "admin");
  }

  /**
   * The module ids that have a work topic: a module is registered once its topic exists (the
   * stack's topics resource or activation creates it), so this is the designer's palette.
   */
  List<String> moduleIds() {
    try {
      return admin.listTopics().names().get(TIMEOUT_SECONDS, TimeUnit.SECONDS).stream()
          .filter(name -> name.startsWith(PlatformTopic.MODULE_TOPIC_PREFIX))
          .map(name -> name.substring(PlatformTopic.MODULE_TOPIC_PREFIX.length()))
          .sorted()
          .toList();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while listing topics", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(
          "listing topics failed: " + e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("Kafka did not answer within " + TIMEOUT_SECONDS + " s", e);
    }
  }

  /** Returns the names it created. */
  List<String> ensure(List<TopicSpec> wanted) {
    try {
      Set<String> existing = admin.listTopics().names().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      List<String> created = new ArrayList<>();
      for (TopicSpec topic : wanted) {
        if (existing.contains(topic.name())) {
          continue;
        }
        try {
          // Replication is the cluster's default (-1): MSK Serverless chooses it, a local broker
          // has one.
          admin
              .createTopics(
                  List.of(
                      new NewTopic(
                          topic.name(), Optional.of(topic.partitions()), Optional.empty())))
              .all()
              .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
          created.add(topic.name());
        } catch (ExecutionException e) {
          if (!(e.getCause() instanceof TopicExistsException)) {
            throw new IllegalStateException(
                "creating topic " + topic.name() + " failed: " + e.getCause().getMessage(),
                e.getCause());
          }
        }
      }
      return created;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while creating topics", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(
          "listing topics failed: " + e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("Kafka did not answer within " + TIMEOUT_SECONDS + " s", e);
    }
  }
}
