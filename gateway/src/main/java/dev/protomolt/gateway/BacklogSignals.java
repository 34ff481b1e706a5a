package dev.protomolt.gateway;

import dev.protomolt.core.metrics.MetricsSink;
import dev.protomolt.names.PlatformMetric;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

/**
 * The backlog signals of one gateway task, per module service it serves (decision 1653): records
 * queued (in Kafka past this task's fetch position on its partitions, plus buffered here), the age
 * of the oldest buffered record, Work streams open, units in flight and the mean ack latency; and
 * the task's own backlog (queued plus in flight over its module services), the one value per task
 * the stack divides by the number of tasks to scale on (decision 1654). Each partition is held by
 * one task, so the module values summed over the tasks are the service's whole queue.
 */
public final class BacklogSignals {

  /** One module service's backlog on this task at one instant. */
  public record ModuleServiceBacklog(
      String moduleId,
      long queued,
      Duration oldestQueuedAge,
      long streamsOpen,
      long unitsInFlight) {}

  /**
   * One graph node's backlog on this task at one instant (decision 1659): its records buffered
   * now and the oldest one's age, its units in flight now, and how this task settled its hops
   * since {@link ModuleActivity#countingSince}.
   */
  public record GraphNodeBacklog(
      String graphId,
      String nodeId,
      String moduleId,
      long queued,
      Duration oldestQueuedAge,
      long unitsInFlight,
      long done,
      long rejected,
      long retried) {}

  private record NodeKey(String graphId, String nodeId, String moduleId) {}

  private final Function<String, KafkaWorkSource.QueueSnapshot> queues;
  private final ModuleActivity activity;
  private final ModuleBacklog groupBacklog;
  private final List<String> modules;
  private final GatewayClock clock;

  /**
   * @param queues this task's queue per module service ({@link KafkaWorkSource#queue})
   * @param groupBacklog the consumer group's lag, reported beside these (and whose Kafka admin
   *     reads the log end offsets)
   */
  public BacklogSignals(
      Function<String, KafkaWorkSource.QueueSnapshot> queues,
      ModuleActivity activity,
      ModuleBacklog groupBacklog,
      List<String> modules,
      GatewayClock clock) {
    this.queues = Objects.requireNonNull(queues, "queues");
    this.activity = Objects.requireNonNull(activity, "activity");
    this.groupBacklog = Objects.requireNonNull(groupBacklog, "groupBacklog");
    this.modules = List.copyOf(modules);
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Each module service's backlog on this task now, in the order the gateway was configured. */
  public List<ModuleServiceBacklog> measure() {
    Map<String, KafkaWorkSource.QueueSnapshot> snapshots = new LinkedHashMap<>();
    List<TopicPartition> partitions = new ArrayList<>();
    for (String module : modules) {
      KafkaWorkSource.QueueSnapshot s = queues.apply(module);
      snapshots.put(module, s);
      partitions.addAll(s.fetchPositions().keySet());
    }
    Map<TopicPartition, ListOffsetsResultInfo> ends =
        partitions.isEmpty() ? Map.of() : groupBacklog.offsets(partitions, OffsetSpec.latest());
    Instant now = clock.now();
    List<ModuleServiceBacklog> out = new ArrayList<>();
    snapshots.forEach(
        (module, s) -> {
          long unfetched = 0;
          for (var e : s.fetchPositions().entrySet()) {
            ListOffsetsResultInfo end = ends.get(e.getKey());
            if (end != null) {
              unfetched += Math.max(0, end.offset() - e.getValue());
            }
          }
          Duration age =
              s.oldestBufferedMillis().isPresent()
                  ? Duration.ofMillis(
                      Math.max(0, now.toEpochMilli() - s.oldestBufferedMillis().getAsLong()))
                  : Duration.ZERO;
          out.add(
              new ModuleServiceBacklog(
                  module,
                  unfetched + s.buffered(),
                  age,
                  activity.streamsOpen(module),
                  activity.unitsInFlight(module)));
        });
    return out;
  }

  /**
   * Every graph node this task holds records of now or has popped one of since it started, by
   * graph id, node id and module service. Only what this task buffered is attributed to a node:
   * records past the fetch position are not read yet, so they count in {@link #measure}'s queued
   * alone.
   */
  public List<GraphNodeBacklog> measureNodes() {
    Map<NodeKey, KafkaWorkSource.NodeQueue> queued = new LinkedHashMap<>();
    for (String module : modules) {
      queues
          .apply(module)
          .nodes()
          .forEach((n, q) -> queued.put(new NodeKey(n.graphId(), n.nodeId(), module), q));
    }
    Map<NodeKey, ModuleActivity.NodeActivity> active = new LinkedHashMap<>();
    for (ModuleActivity.NodeActivity a : activity.nodes()) {
      active.put(new NodeKey(a.graphId(), a.nodeId(), a.moduleId()), a);
    }
    List<NodeKey> keys = new ArrayList<>(queued.keySet());
    active.keySet().stream().filter(k -> !queued.containsKey(k)).forEach(keys::add);
    keys.sort(
        Comparator.comparing(NodeKey::graphId)
            .thenComparing(NodeKey::nodeId)
            .thenComparing(NodeKey::moduleId));
    long now = clock.now().toEpochMilli();
    List<GraphNodeBacklog> out = new ArrayList<>();
    for (NodeKey k : keys) {
      KafkaWorkSource.NodeQueue q = queued.get(k);
      ModuleActivity.NodeActivity a =
          active.getOrDefault(
              k,
              new ModuleActivity.NodeActivity(k.graphId(), k.nodeId(), k.moduleId(), 0, 0, 0, 0));
      out.add(
          new GraphNodeBacklog(
              k.graphId(),
              k.nodeId(),
              k.moduleId(),
              q == null ? 0 : q.buffered(),
              q == null
                  ? Duration.ZERO
                  : Duration.ofMillis(Math.max(0, now - q.oldestBufferedMillis())),
              a.unitsInFlight(),
              a.done(),
              a.rejected(),
              a.retried()));
    }
    return out;
  }

  /** When the settled counts of {@link #measureNodes} began: this task's start. */
  public Instant countingSince() {
    return activity.countingSince();
  }

  /**
   * Measures and emits every signal, the consumer group's lag ({@code ModuleTopicBacklog}) included,
   * and takes the ack latencies since the last report.
   */
  public List<ModuleServiceBacklog> report(MetricsSink metrics) {
    groupBacklog.report(metrics);
    List<ModuleServiceBacklog> backlog = measure();
    long task = 0;
    for (ModuleServiceBacklog b : backlog) {
      Map<String, String> module = Map.of(PlatformMetric.MODULE_SERVICE_DIMENSION, b.moduleId());
      metrics.emit(PlatformMetric.MODULE_QUEUED_RECORDS, b.queued(), module);
      metrics.emit(
          PlatformMetric.MODULE_OLDEST_QUEUED_AGE, b.oldestQueuedAge().toSeconds(), module);
      metrics.emit(PlatformMetric.MODULE_STREAMS_OPEN, b.streamsOpen(), module);
      metrics.emit(PlatformMetric.MODULE_UNITS_IN_FLIGHT, b.unitsInFlight(), module);
      activity
          .takeAckLatency(b.moduleId())
          .meanMillis()
          .ifPresent(ms -> metrics.emit(PlatformMetric.MODULE_ACK_LATENCY, ms, module));
      task += b.queued() + b.unitsInFlight();
    }
    metrics.emit(PlatformMetric.GATEWAY_TASK_BACKLOG, task);
    return backlog;
  }
}
