package dev.protomolt.gateway;

import dev.protomolt.core.metrics.MetricsSink;
import dev.protomolt.names.PlatformMetric;
import dev.protomolt.names.PlatformTopic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * How many records wait in the gateway's module topics for its consumer group: per partition the
 * log end offset less the group's committed offset (less the log start when the group has never
 * committed there). The stack scales the gateway on the total, {@code ModuleTopicBacklog} with
 * dimension {@code Environment}; the per-module values go out with a {@code ModuleService}
 * dimension as well, for an operator looking at which module is behind.
 */
public final class ModuleBacklog {

  private final Admin admin;
  private final String group;
  private final List<String> modules;
  private final Duration timeout;

  public ModuleBacklog(Admin admin, String group, List<String> modules, Duration timeout) {
    this.admin = Objects.requireNonNull(admin, "admin");
    this.group = Objects.requireNonNull(group, "group");
    this.modules = List.copyOf(modules);
    this.timeout = Objects.requireNonNull(timeout, "timeout");
  }

  /** The waiting records per module service, in the order the gateway was configured with. */
  public Map<String, Long> measure() {
    Map<String, String> topicToModule = new LinkedHashMap<>();
    modules.forEach(m -> topicToModule.put(PlatformTopic.moduleTopic(m), m));
    // A module topic not created yet (the first dispatch creates it) holds no backlog.
    List<TopicPartition> partitions = partitionsOf(topicToModule.keySet());
    Map<TopicPartition, OffsetAndMetadata> committed =
        await(
            admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata(),
            "reading group " + group + "'s offsets");
    Map<TopicPartition, ListOffsetsResultInfo> ends = offsets(partitions, OffsetSpec.latest());
    Map<TopicPartition, ListOffsetsResultInfo> starts = offsets(partitions, OffsetSpec.earliest());
    Map<String, Long> backlog = new LinkedHashMap<>();
    modules.forEach(m -> backlog.put(m, 0L));
    for (TopicPartition tp : partitions) {
      OffsetAndMetadata done = committed.get(tp);
      long from = done != null ? done.offset() : starts.get(tp).offset();
      long waiting = Math.max(0, ends.get(tp).offset() - from);
      backlog.merge(topicToModule.get(tp.topic()), waiting, Long::sum);
    }
    return backlog;
  }

  /**
   * How many records {@code topics} hold now (log end less log start, so within retention): a
   * topic that does not exist holds none. A dead-letter topic only ever grows by letters, so this
   * is the letters it keeps.
   */
  public long recordsOn(Collection<String> topics) {
    List<TopicPartition> partitions = partitionsOf(topics);
    if (partitions.isEmpty()) {
      return 0;
    }
    Map<TopicPartition, ListOffsetsResultInfo> ends = offsets(partitions, OffsetSpec.latest());
    Map<TopicPartition, ListOffsetsResultInfo> starts = offsets(partitions, OffsetSpec.earliest());
    long records = 0;
    for (TopicPartition tp : partitions) {
      records += Math.max(0, ends.get(tp).offset() - starts.get(tp).offset());
    }
    return records;
  }

  /** Measures and emits: the total the stack scales on, then each module's share. */
  public long report(MetricsSink metrics) {
    Map<String, Long> backlog = measure();
    long total = backlog.values().stream().mapToLong(Long::longValue).sum();
    metrics.emit(PlatformMetric.MODULE_TOPIC_BACKLOG, total);
    backlog.forEach(
        (module, waiting) ->
            metrics.emit(
                PlatformMetric.MODULE_TOPIC_BACKLOG,
                waiting,
                Map.of(PlatformMetric.MODULE_SERVICE_DIMENSION, module)));
    return total;
  }

  /** Every partition of {@code topics}; a topic that does not exist has none. */
  private List<TopicPartition> partitionsOf(Collection<String> topics) {
    List<TopicPartition> partitions = new ArrayList<>();
    if (topics.isEmpty()) {
      return partitions;
    }
    for (Map.Entry<String, KafkaFuture<TopicDescription>> t :
        admin.describeTopics(topics).topicNameValues().entrySet()) {
      TopicDescription d;
      try {
        d = await(t.getValue(), "describing topic " + t.getKey());
      } catch (IllegalStateException e) {
        if (e.getCause() instanceof UnknownTopicOrPartitionException) {
          continue;
        }
        throw e;
      }
      d.partitions().forEach(p -> partitions.add(new TopicPartition(d.name(), p.partition())));
    }
    return partitions;
  }

  /** The offsets at {@code spec} of {@code partitions}, within this backlog's timeout. */
  Map<TopicPartition, ListOffsetsResultInfo> offsets(
      List<TopicPartition> partitions, OffsetSpec spec) {
    Map<TopicPartition, OffsetSpec> request = new HashMap<>();
    partitions.forEach(tp -> request.put(tp, spec));
    return await(admin.listOffsets(request).all(), "listing offsets");
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
