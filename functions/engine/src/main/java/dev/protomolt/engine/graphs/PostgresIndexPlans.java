package dev.protomolt.engine.graphs;

import dev.protomolt.core.graph.validation.IndexPlanRegistry;
import dev.protomolt.proto.config.v1.IndexPlan;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;

/**
 * The index-plan registry in {@code index_plans} (migration V1621, decision 1621). A sink module
 * declares the plans it writes when it starts; graph validation in PRODUCTION reads them. A plan id
 * belongs to the module that first declared it, so one module can never take over the index of
 * another; re-declaring one's own plan refreshes its index name, description and dimensions.
 */
public final class PostgresIndexPlans implements IndexPlanRegistry {

  private static final String COLUMNS =
      "plan_id, module_id, index_name, description, vector_dimensions";

  private final DataSource db;
  private final InstantSource clock;

  public PostgresIndexPlans(DataSource db, InstantSource clock) {
    this.db = Objects.requireNonNull(db, "db");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Registers every plan, all or none, and returns them as stored.
   *
   * @throws IllegalArgumentException naming the plan and field: no plans, a blank plan id, module id
   *     or index name, negative dimensions, a plan id twice in one request, or a plan id another
   *     module already declared
   */
  public List<IndexPlan> declare(List<IndexPlan> plans) {
    if (plans.isEmpty()) {
      throw new IllegalArgumentException("plans: must name at least one index plan");
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < plans.size(); i++) {
      IndexPlan p = plans.get(i);
      String at = "plans[" + i + "]";
      requireText(at + ".plan_id", p.getPlanId());
      requireText(at + ".module_id", p.getModuleId());
      requireText(at + ".index_name", p.getIndexName());
      if (p.getVectorDimensions() < 0) {
        throw new IllegalArgumentException(
            at + ".vector_dimensions: must be 0 or more, was " + p.getVectorDimensions());
      }
      if (!seen.add(p.getPlanId())) {
        throw new IllegalArgumentException(
            at + ".plan_id: '" + p.getPlanId() + "' appears twice in one declaration");
      }
    }
    try (Connection c = db.getConnection()) {
      c.setAutoCommit(false);
      try {
        for (int i = 0; i < plans.size(); i++) {
          IndexPlan p = plans.get(i);
          upsert(c, p);
          String owner = read(c, p.getPlanId()).map(IndexPlan::getModuleId).orElse("");
          if (!owner.equals(p.getModuleId())) {
            throw new IllegalArgumentException(
                "plans["
                    + i
                    + "].plan_id: '"
                    + p.getPlanId()
                    + "' is already declared by module '"
                    + owner
                    + "', not '"
                    + p.getModuleId()
                    + "'; a plan belongs to the module that declared it");
          }
        }
        c.commit();
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot declare index plans: " + e.getMessage(), e);
    }
    return plans.stream().map(p -> plan(p.getPlanId()).orElseThrow()).toList();
  }

  @Override
  public Optional<IndexPlan> plan(String planId) {
    try (Connection c = db.getConnection()) {
      return read(c, planId);
    } catch (SQLException e) {
      throw new IllegalStateException(
          "cannot read index plan '" + planId + "': " + e.getMessage(), e);
    }
  }

  /** Every declared plan, of one module or (with an empty id) of all, ordered by plan id. */
  public List<IndexPlan> list(String moduleId) {
    List<IndexPlan> found = new ArrayList<>();
    try (Connection c = db.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT "
                    + COLUMNS
                    + " FROM index_plans WHERE ? = '' OR module_id = ? ORDER BY plan_id")) {
      s.setString(1, moduleId);
      s.setString(2, moduleId);
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          found.add(row(r));
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot list index plans: " + e.getMessage(), e);
    }
    return found;
  }

  private void upsert(Connection c, IndexPlan p) throws SQLException {
    // Only the declaring module's own row is refreshed; another module's row is left untouched.
    try (PreparedStatement s =
        c.prepareStatement(
            "INSERT INTO index_plans ("
                + COLUMNS
                + ", declared_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (plan_id) DO UPDATE SET"
                + " index_name = EXCLUDED.index_name, description = EXCLUDED.description,"
                + " vector_dimensions = EXCLUDED.vector_dimensions, declared_at ="
                + " EXCLUDED.declared_at WHERE index_plans.module_id = EXCLUDED.module_id")) {
      s.setString(1, p.getPlanId());
      s.setString(2, p.getModuleId());
      s.setString(3, p.getIndexName());
      s.setString(4, p.getDescription());
      s.setInt(5, p.getVectorDimensions());
      s.setTimestamp(6, Timestamp.from(clock.instant()));
      s.executeUpdate();
    }
  }

  private static Optional<IndexPlan> read(Connection c, String planId) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement("SELECT " + COLUMNS + " FROM index_plans WHERE plan_id = ?")) {
      s.setString(1, planId);
      try (ResultSet r = s.executeQuery()) {
        return r.next() ? Optional.of(row(r)) : Optional.empty();
      }
    }
  }

  private static IndexPlan row(ResultSet r) throws SQLException {
    return IndexPlan.newBuilder()
        .setPlanId(r.getString(1))
        .setModuleId(r.getString(2))
        .setIndexName(r.getString(3))
        .setDescription(r.getString(4))
        .setVectorDimensions(r.getInt(5))
        .build();
  }

  private static void requireText(String field, String value) {
    if (value.isBlank()) {
      throw new IllegalArgumentException(field + ": must be non-blank");
    }
  }
}
