package dev.protomolt.engine.activation;

import dev.protomolt.core.orchestration.TopicProvisioning;
import java.time.Duration;
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
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Creates missing topics through the Kafka admin API with the cluster's default partition count
 * and replication (MSK Serverless chooses both; the local broker has one node). Two activations
 * racing to create the same topic both succeed: "already exists" is the outcome either wanted.
 */
public final class KafkaTopicProvisioning implements TopicProvisioning {

  private final Admin admin;
  private final Duration timeout;

  public KafkaTopicProvisioning(Admin admin, Duration timeout) {
    this.admin = Objects.requireNonNull(admin, "admin");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
  }

  @Override
  public void ensureExist(List<String> topics) {
    if (topics.isEmpty()) {
      return;
    }
    Set<String> existing = await(admin.listTopics().names(), "listing topics");
    List<NewTopic> missing = new ArrayList<>();
    for (String topic : topics) {
      if (!existing.contains(topic)) {
        missing.add(new NewTopic(topic, Optional.empty(), Optional.empty()));
      }
    }
    if (missing.isEmpty()) {
      return;
    }
    admin
        .createTopics(missing)
        .values()
        .forEach(
            (topic, created) -> {
              try {
                await(created, "creating topic " + topic);
              } catch (IllegalStateException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                  throw e;
                }
              }
            });
  }

  private <T> T await(KafkaFuture<T> future, String what) {
    try {
      return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(what + " was interrupted", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(what + " failed: " + e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException(
          what + ": Kafka did not answer within " + timeout.toSeconds() + " s", e);
    }
  }
}
