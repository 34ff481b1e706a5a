package dev.protomolt.repository.purge;

import dev.protomolt.core.store.LedgerStore;
import dev.protomolt.core.store.PipeDocRecord;
import dev.protomolt.core.store.PurgeEventSink;
import dev.protomolt.proto.repository.v1.DocumentStatus;
import dev.protomolt.repository.postgres.LedgerException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * Publishes a fresh purge event for rows left PENDING_PURGE longer than a grace period. The store
 * publishes after the tombstone commits, so a publish that failed leaves a row nobody will purge;
 * this finds them. A row whose first event was merely slow gets a second one, which the purger
 * voids (the row is PURGED by then) or handles once (events for one row in one batch collapse).
 */
public final class TombstoneReannouncer {

  private static final String STUCK =
      "SELECT node_id FROM pipedocs WHERE status = 'PENDING_PURGE'"
          + " AND updated_at < ? ORDER BY updated_at, node_id LIMIT ?";

  private final DataSource dataSource;
  private final LedgerStore ledger;
  private final PurgeEventSink sink;
  private final Duration grace;
  private final Clock clock;

  /**
   * @param grace how long a tombstone may wait for the purger before it is announced again; at
   *     least one minute, so a purger working through its backlog is not flooded with duplicates
   */
  public TombstoneReannouncer(
      DataSource dataSource, LedgerStore ledger, PurgeEventSink sink, Duration grace, Clock clock) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    this.ledger = Objects.requireNonNull(ledger, "ledger");
    this.sink = Objects.requireNonNull(sink, "sink");
    this.grace = Objects.requireNonNull(grace, "grace");
    this.clock = Objects.requireNonNull(clock, "clock");
    if (grace.compareTo(Duration.ofMinutes(1)) < 0) {
      throw new IllegalArgumentException("reannounce grace must be at least PT1M but was " + grace);
    }
  }

  /** Announces up to {@code limit} stuck tombstones, oldest first; returns how many. */
  public int reannounce(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("reannounce limit must be at least 1 but was " + limit);
    }
    List<UUID> stuck = new ArrayList<>();
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(STUCK)) {
      s.setTimestamp(1, Timestamp.from(clock.instant().minus(grace)));
      s.setInt(2, limit);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          stuck.add(rs.getObject(1, UUID.class));
        }
      }
    } catch (SQLException e) {
      throw new LedgerException("finding tombstones older than " + grace, e);
    }
    int announced = 0;
    for (UUID nodeId : stuck) {
      var row =
          ledger
              .find(nodeId)
              .filter(r -> r.status() == DocumentStatus.DOCUMENT_STATUS_PENDING_PURGE);
      if (row.isPresent()) {
        PipeDocRecord r = row.get();
        sink.publish(PurgeEvents.of(r, "REANNOUNCED", r.updatedAt()));
        announced++;
      }
    }
    return announced;
  }
}
