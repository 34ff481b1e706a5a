package dev.protomolt.engine.graphs;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Timestamp;
import com.google.protobuf.util.JsonFormat;
import dev.protomolt.core.graph.GraphAdminException;
import dev.protomolt.core.graph.GraphAdminException.Reason;
import dev.protomolt.core.graph.GraphStore;
import dev.protomolt.core.graph.GraphStoreArguments;
import dev.protomolt.core.graph.SubscriptionIds;
import dev.protomolt.db.Transactions;
import dev.protomolt.proto.config.v1.DatasourceSubscription;
import dev.protomolt.proto.config.v1.PipelineGraph;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import javax.sql.DataSource;

/**
 * The graph store on Postgres (schema: db/migrations/V200__pipeline_graphs.sql). Every write runs
 * in one transaction that first locks the graph's row in {@code pipeline_graph_epochs}, so
 * version assignment, activation and deactivation of one graph are serialized and the epoch check
 * and the flip commit together. The partial unique index keeps "one active version" true even
 * against a writer that bypasses this class.
 */
public final class PostgresGraphStore implements GraphStore {

  private static final JsonFormat.Printer JSON =
      JsonFormat.printer().omittingInsignificantWhitespace();

  private final DataSource dataSource;

  public PostgresGraphStore(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  @Override
  public StoredGraph create(
      PipelineGraph graph, OptionalLong expectedVersion, String createdBy, Instant now) {
    GraphStoreArguments.requireStorable(graph);
    return inTransaction(
        c -> {
          try (PreparedStatement ensure =
              c.prepareStatement(
                  "INSERT INTO pipeline_graph_epochs (graph_id, cluster_id) VALUES (?, ?) ON"
                      + " CONFLICT DO NOTHING")) {
            ensure.setString(1, graph.getGraphId());
            ensure.setString(2, graph.getClusterId());
            ensure.executeUpdate();
          }
          Head head = lockHead(c, graph.getGraphId()).orElseThrow();
          if (!head.clusterId().equals(graph.getClusterId())) {
            throw GraphStoreArguments.clusterMismatch(
                graph.getGraphId(), head.clusterId(), graph.getClusterId());
          }
          long version =
              GraphStoreArguments.nextVersion(
                  graph.getGraphId(), head.lastVersion(), expectedVersion);
          PipelineGraph stored =
              graph.toBuilder()
                  .setVersion(version)
                  .setCreatedBy(createdBy)
                  .setCreatedAt(
                      Timestamp.newBuilder()
                          .setSeconds(now.getEpochSecond())
                          .setNanos(now.getNano()))
                  .build();
          try (PreparedStatement insert =
              c.prepareStatement(
                  "INSERT INTO pipeline_graphs (graph_id, version, cluster_id, account_id, name,"
                      + " graph_json, graph_proto, created_by, created_at) VALUES (?, ?, ?, ?, ?,"
                      + " ?::jsonb, ?, ?, ?)")) {
            insert.setString(1, stored.getGraphId());
            insert.setLong(2, version);
            insert.setString(3, stored.getClusterId());
            insert.setString(4, stored.getAccountId());
            insert.setString(5, stored.getName());
            insert.setString(6, JSON.print(stored));
            insert.setBytes(7, stored.toByteArray());
            insert.setString(8, createdBy);
            insert.setObject(9, OffsetDateTime.ofInstant(now, ZoneOffset.UTC));
            insert.executeUpdate();
          } catch (InvalidProtocolBufferException e) {
            throw new GraphAdminException(
                Reason.INVALID_ARGUMENT,
                "graph '" + graph.getGraphId() + "' cannot be rendered as JSON: " + e.getMessage(),
                e);
          }
          try (PreparedStatement bump =
              c.prepareStatement(
                  "UPDATE pipeline_graph_epochs SET last_version = ?, updated_at = now() WHERE"
                      + " graph_id = ?")) {
            bump.setLong(1, version);
            bump.setString(2, graph.getGraphId());
            bump.executeUpdate();
          }
          return new StoredGraph(stored, false, "");
        });
  }

  @Override
  public StoredGraph activate(String graphId, String clusterId, long version, long observedEpoch) {
    return inTransaction(
        c -> {
          Head head =
              lockHead(c, graphId)
                  .orElseThrow(() -> GraphStoreArguments.notFound(graphId, clusterId, version));
          StoredGraph row =
              select(
                      c,
                      "WHERE graph_id = ? AND version = ? AND cluster_id = ?",
                      graphId,
                      version,
                      clusterId)
                  .stream()
                  .findFirst()
                  .orElseThrow(() -> GraphStoreArguments.notFound(graphId, clusterId, version));
          if (observedEpoch < head.epoch()) {
            throw GraphStoreArguments.stale(graphId, version, observedEpoch, head.epoch());
          }
          // Clear first: the partial unique index forbids two active rows even inside the
          // transaction.
          update(
              c,
              "UPDATE pipeline_graphs SET is_active = FALSE WHERE graph_id = ? AND cluster_id = ?"
                  + " AND is_active",
              graphId,
              clusterId);
          update(
              c,
              "UPDATE pipeline_graphs SET is_active = TRUE, activated_at = now() WHERE graph_id = ?"
                  + " AND version = ?",
              graphId,
              version);
          update(c, "DELETE FROM datasource_subscriptions WHERE graph_id = ?", graphId);
          try (PreparedStatement insert =
              c.prepareStatement(
                  "INSERT INTO datasource_subscriptions (subscription_id, graph_id, version,"
                      + " datasource_id, cluster_id, account_id, intake_node_id) VALUES (?, ?, ?,"
                      + " ?, ?, ?, ?)")) {
            for (DatasourceSubscription s : SubscriptionIds.derive(row.graph())) {
              insert.setString(1, s.getSubscriptionId());
              insert.setString(2, s.getGraphId());
              insert.setLong(3, s.getVersion());
              insert.setString(4, s.getDatasourceId());
              insert.setString(5, s.getClusterId());
              insert.setString(6, s.getAccountId());
              insert.setString(7, s.getIntakeNodeId());
              insert.addBatch();
            }
            insert.executeBatch();
          }
          return new StoredGraph(row.graph(), true, row.stateMachineVersionArn());
        });
  }

  @Override
  public Deactivation deactivate(String graphId, String clusterId) {
    return inTransaction(
        c -> {
          Head head =
              lockHead(c, graphId)
                  .orElseThrow(() -> GraphStoreArguments.notFound(graphId, clusterId, 0));
          if (!head.clusterId().equals(clusterId)) {
            throw GraphStoreArguments.notFound(graphId, clusterId, 0);
          }
          long was = 0;
          try (PreparedStatement off =
              c.prepareStatement(
                  "UPDATE pipeline_graphs SET is_active = FALSE WHERE graph_id = ? AND cluster_id ="
                      + " ? AND is_active RETURNING version")) {
            off.setString(1, graphId);
            off.setString(2, clusterId);
            try (ResultSet rs = off.executeQuery()) {
              if (rs.next()) {
                was = rs.getLong(1);
              }
            }
          }
          update(c, "DELETE FROM datasource_subscriptions WHERE graph_id = ?", graphId);
          long epoch = head.epoch() + 1;
          try (PreparedStatement bump =
              c.prepareStatement(
                  "UPDATE pipeline_graph_epochs SET deactivation_epoch = ?, updated_at = now()"
                      + " WHERE graph_id = ?")) {
            bump.setLong(1, epoch);
            bump.setString(2, graphId);
            bump.executeUpdate();
          }
          return new Deactivation(was, epoch);
        });
  }

  @Override
  public StoredGraph recordStateMachineVersion(String graphId, long version, String arn) {
    return inTransaction(
        c -> {
          Head head =
              lockHead(c, graphId)
                  .orElseThrow(() -> GraphStoreArguments.notFound(graphId, "", version));
          StoredGraph row =
              select(c, "WHERE graph_id = ? AND version = ?", graphId, version).stream()
                  .findFirst()
                  .orElseThrow(
                      () -> GraphStoreArguments.notFound(graphId, head.clusterId(), version));
          String recorded =
              GraphStoreArguments.requireArn(graphId, version, row.stateMachineVersionArn(), arn);
          update(
              c,
              "UPDATE pipeline_graphs SET state_machine_version_arn = ? WHERE graph_id = ? AND"
                  + " version = ?",
              recorded,
              graphId,
              version);
          // Kept on the never-deleted head row, so deleting the graph version does not forget the
          // number.
          try (PreparedStatement bump =
              c.prepareStatement(
                  "UPDATE pipeline_graph_epochs SET last_state_machine_version ="
                      + " GREATEST(last_state_machine_version, ?), updated_at = now() WHERE"
                      + " graph_id = ?")) {
            bump.setLong(1, GraphStoreArguments.stateMachineVersionNumber(recorded));
            bump.setString(2, graphId);
            bump.executeUpdate();
          }
          return new StoredGraph(row.graph(), row.active(), recorded);
        });
  }

  @Override
  public long lastStateMachineVersion(String graphId) {
    return read(
        c -> {
          try (PreparedStatement s =
              c.prepareStatement(
                  "SELECT last_state_machine_version FROM pipeline_graph_epochs WHERE graph_id"
                      + " = ?")) {
            s.setString(1, graphId);
            try (ResultSet rs = s.executeQuery()) {
              return rs.next() ? rs.getLong(1) : 0L;
            }
          }
        });
  }

  @Override
  public void delete(String graphId, String clusterId, long version) {
    inTransaction(
        c -> {
          lockHead(c, graphId)
              .orElseThrow(() -> GraphStoreArguments.notFound(graphId, clusterId, version));
          StoredGraph row =
              select(
                      c,
                      "WHERE graph_id = ? AND version = ? AND cluster_id = ?",
                      graphId,
                      version,
                      clusterId)
                  .stream()
                  .findFirst()
                  .orElseThrow(() -> GraphStoreArguments.notFound(graphId, clusterId, version));
          if (row.active()) {
            throw GraphStoreArguments.deleteActive(graphId, version);
          }
          update(
              c,
              "DELETE FROM pipeline_graphs WHERE graph_id = ? AND version = ?",
              graphId,
              version);
          return null;
        });
  }

  @Override
  public Optional<StoredGraph> get(String graphId, long version) {
    return read(
        c ->
            (version == 0
                    ? select(c, "WHERE graph_id = ? AND is_active", graphId)
                    : select(c, "WHERE graph_id = ? AND version = ?", graphId, version))
                .stream().findFirst());
  }

  @Override
  public List<StoredGraph> versions(String graphId) {
    return read(c -> select(c, "WHERE graph_id = ? ORDER BY version", graphId));
  }

  @Override
  public List<StoredGraph> graphs(String clusterId) {
    return read(
        c ->
            select(
                c,
                "WHERE (graph_id, version) IN ( SELECT DISTINCT ON (graph_id) graph_id, version"
                    + " FROM pipeline_graphs WHERE cluster_id = ? ORDER BY graph_id, is_active"
                    + " DESC, version DESC) ORDER BY graph_id",
                clusterId));
  }

  @Override
  public long deactivationEpoch(String graphId) {
    return read(
        c -> {
          try (PreparedStatement s =
              c.prepareStatement(
                  "SELECT deactivation_epoch FROM pipeline_graph_epochs WHERE graph_id = ?")) {
            s.setString(1, graphId);
            try (ResultSet rs = s.executeQuery()) {
              return rs.next() ? rs.getLong(1) : 0L;
            }
          }
        });
  }

  @Override
  public List<DatasourceSubscription> subscriptions(String datasourceId) {
    return read(
        c -> {
          try (PreparedStatement s =
              c.prepareStatement(
                  "SELECT subscription_id, graph_id, version, datasource_id, cluster_id,"
                      + " account_id, intake_node_id FROM datasource_subscriptions WHERE"
                      + " datasource_id = ? ORDER BY subscription_id")) {
            s.setString(1, datasourceId);
            List<DatasourceSubscription> out = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
              while (rs.next()) {
                out.add(
                    DatasourceSubscription.newBuilder()
                        .setSubscriptionId(rs.getString(1))
                        .setGraphId(rs.getString(2))
                        .setVersion(rs.getLong(3))
                        .setDatasourceId(rs.getString(4))
                        .setClusterId(rs.getString(5))
                        .setAccountId(rs.getString(6))
                        .setIntakeNodeId(rs.getString(7))
                        .build());
              }
            }
            return out;
          }
        });
  }

  private record Head(String clusterId, long epoch, long lastVersion) {}

  private static Optional<Head> lockHead(Connection c, String graphId) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement(
            "SELECT cluster_id, deactivation_epoch, last_version"
                + " FROM pipeline_graph_epochs WHERE graph_id = ? FOR UPDATE")) {
      s.setString(1, graphId);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next()
            ? Optional.of(new Head(rs.getString(1), rs.getLong(2), rs.getLong(3)))
            : Optional.empty();
      }
    }
  }

  private static List<StoredGraph> select(Connection c, String where, Object... args)
      throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement(
            "SELECT graph_proto, is_active, state_machine_version_arn FROM pipeline_graphs "
                + where)) {
      bind(s, args);
      List<StoredGraph> out = new ArrayList<>();
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          PipelineGraph graph;
          try {
            graph = PipelineGraph.parseFrom(rs.getBytes(1));
          } catch (InvalidProtocolBufferException e) {
            throw new SQLException(
                "pipeline_graphs.graph_proto does not parse as PipelineGraph", e);
          }
          out.add(new StoredGraph(graph, rs.getBoolean(2), rs.getString(3)));
        }
      }
      return out;
    }
  }

  private static void update(Connection c, String sql, Object... args) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(sql)) {
      bind(s, args);
      s.executeUpdate();
    }
  }

  private static void bind(PreparedStatement s, Object... args) throws SQLException {
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case String str -> s.setString(i + 1, str);
        case Long l -> s.setLong(i + 1, l);
        case null -> s.setNull(i + 1, Types.VARCHAR);
        default -> s.setObject(i + 1, args[i]);
      }
    }
  }

  private <T> T read(Transactions.Work<T> work) {
    try (Connection c = dataSource.getConnection()) {
      return work.run(c);
    } catch (SQLException e) {
      throw unavailable(e);
    }
  }

  private <T> T inTransaction(Transactions.Work<T> work) {
    try {
      return Transactions.inTransaction(dataSource, work);
    } catch (SQLException e) {
      throw unavailable(e);
    }
  }

  /** Database trouble is never reported as "not found" or "empty": callers must see it failed. */
  private static GraphAdminException unavailable(SQLException e) {
    return new GraphAdminException(
        Reason.UNAVAILABLE, "graph store unavailable: " + e.getMessage(), e);
  }
}
