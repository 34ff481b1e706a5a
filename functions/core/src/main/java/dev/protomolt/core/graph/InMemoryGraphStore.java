package dev.protomolt.core.graph;

import com.google.protobuf.Timestamp;
import dev.protomolt.proto.config.v1.DatasourceSubscription;
import dev.protomolt.proto.config.v1.PipelineGraph;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The graph store in memory, held to the same behaviour test as the Postgres adapter. Used by
 * pure tests and by local runs that need no database.
 */
public final class InMemoryGraphStore implements GraphStore {

  private record Head(String clusterId, long lastVersion, long epoch, Long active) {}

  private final Map<String, TreeMap<Long, StoredGraph>> versions = new HashMap<>();
  private final Map<String, Head> heads = new HashMap<>();
  private final Map<String, Long> lastMachineVersions = new HashMap<>();

  @Override
  public synchronized StoredGraph create(
      PipelineGraph graph, OptionalLong expectedVersion, String createdBy, Instant now) {
    GraphStoreArguments.requireStorable(graph);
    Head head = heads.get(graph.getGraphId());
    if (head != null && !head.clusterId().equals(graph.getClusterId())) {
      throw GraphStoreArguments.clusterMismatch(
          graph.getGraphId(), head.clusterId(), graph.getClusterId());
    }
    long last = head == null ? 0 : head.lastVersion();
    long version = GraphStoreArguments.nextVersion(graph.getGraphId(), last, expectedVersion);
    PipelineGraph stored =
        graph.toBuilder()
            .setVersion(version)
            .setCreatedBy(createdBy)
            .setCreatedAt(
                Timestamp.newBuilder().setSeconds(now.getEpochSecond()).setNanos(now.getNano()))
            .build();
    StoredGraph row = new StoredGraph(stored, false, "");
    versions.computeIfAbsent(graph.getGraphId(), k -> new TreeMap<>()).put(version, row);
    heads.put(
        graph.getGraphId(),
        new Head(
            graph.getClusterId(),
            version,
            head == null ? 0 : head.epoch(),
            head == null ? null : head.active()));
    return row;
  }

  @Override
  public synchronized StoredGraph activate(
      String graphId, String clusterId, long version, long observedEpoch) {
    Head head = heads.get(graphId);
    StoredGraph row = head == null ? null : versions.get(graphId).get(version);
    if (row == null || !head.clusterId().equals(clusterId)) {
      throw GraphStoreArguments.notFound(graphId, clusterId, version);
    }
    if (observedEpoch < head.epoch()) {
      throw GraphStoreArguments.stale(graphId, version, observedEpoch, head.epoch());
    }
    if (head.active() != null) {
      StoredGraph previous = versions.get(graphId).get(head.active());
      versions
          .get(graphId)
          .put(
              head.active(),
              new StoredGraph(previous.graph(), false, previous.stateMachineVersionArn()));
    }
    StoredGraph active = new StoredGraph(row.graph(), true, row.stateMachineVersionArn());
    versions.get(graphId).put(version, active);
    heads.put(graphId, new Head(head.clusterId(), head.lastVersion(), head.epoch(), version));
    return active;
  }

  @Override
  public synchronized Deactivation deactivate(String graphId, String clusterId) {
    Head head = heads.get(graphId);
    if (head == null || !head.clusterId().equals(clusterId)) {
      throw GraphStoreArguments.notFound(graphId, clusterId, 0);
    }
    long was = 0;
    if (head.active() != null) {
      was = head.active();
      StoredGraph row = versions.get(graphId).get(was);
      versions
          .get(graphId)
          .put(was, new StoredGraph(row.graph(), false, row.stateMachineVersionArn()));
    }
    long epoch = head.epoch() + 1;
    heads.put(graphId, new Head(head.clusterId(), head.lastVersion(), epoch, null));
    return new Deactivation(was, epoch);
  }

  @Override
  public synchronized StoredGraph recordStateMachineVersion(
      String graphId, long version, String arn) {
    StoredGraph row = versions.containsKey(graphId) ? versions.get(graphId).get(version) : null;
    if (row == null) {
      throw GraphStoreArguments.notFound(
          graphId, heads.containsKey(graphId) ? heads.get(graphId).clusterId() : "", version);
    }
    StoredGraph updated =
        new StoredGraph(
            row.graph(),
            row.active(),
            GraphStoreArguments.requireArn(graphId, version, row.stateMachineVersionArn(), arn));
    versions.get(graphId).put(version, updated);
    lastMachineVersions.merge(
        graphId, GraphStoreArguments.stateMachineVersionNumber(arn), Math::max);
    return updated;
  }

  @Override
  public synchronized long lastStateMachineVersion(String graphId) {
    return lastMachineVersions.getOrDefault(graphId, 0L);
  }

  @Override
  public synchronized void delete(String graphId, String clusterId, long version) {
    Head head = heads.get(graphId);
    StoredGraph row = head == null ? null : versions.get(graphId).get(version);
    if (row == null || !head.clusterId().equals(clusterId)) {
      throw GraphStoreArguments.notFound(graphId, clusterId, version);
    }
    if (row.active()) {
      throw GraphStoreArguments.deleteActive(graphId, version);
    }
    versions.get(graphId).remove(version);
  }

  @Override
  public synchronized Optional<StoredGraph> get(String graphId, long version) {
    TreeMap<Long, StoredGraph> all = versions.get(graphId);
    if (all == null) {
      return Optional.empty();
    }
    if (version == 0) {
      Head head = heads.get(graphId);
      return head.active() == null ? Optional.empty() : Optional.of(all.get(head.active()));
    }
    return Optional.ofNullable(all.get(version));
  }

  @Override
  public synchronized List<StoredGraph> versions(String graphId) {
    return List.copyOf(versions.getOrDefault(graphId, new TreeMap<>()).values());
  }

  @Override
  public synchronized List<StoredGraph> graphs(String clusterId) {
    Map<String, StoredGraph> out = new LinkedHashMap<>();
    heads.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .filter(e -> e.getValue().clusterId().equals(clusterId))
        .forEach(
            e -> {
              TreeMap<Long, StoredGraph> all = versions.get(e.getKey());
              if (all == null || all.isEmpty()) {
                return;
              }
              Long active = e.getValue().active();
              out.put(e.getKey(), active != null ? all.get(active) : all.lastEntry().getValue());
            });
    return List.copyOf(out.values());
  }

  @Override
  public synchronized long deactivationEpoch(String graphId) {
    Head head = heads.get(graphId);
    return head == null ? 0 : head.epoch();
  }

  @Override
  public synchronized List<DatasourceSubscription> subscriptions(String datasourceId) {
    List<DatasourceSubscription> out = new ArrayList<>();
    heads.forEach(
        (graphId, head) -> {
          if (head.active() != null) {
            SubscriptionIds.derive(versions.get(graphId).get(head.active()).graph()).stream()
                .filter(s -> s.getDatasourceId().equals(datasourceId))
                .forEach(out::add);
          }
        });
    out.sort(Comparator.comparing(DatasourceSubscription::getSubscriptionId));
    return out;
  }
}
