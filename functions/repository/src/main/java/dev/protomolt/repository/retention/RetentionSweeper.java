package dev.protomolt.repository.retention;

import dev.protomolt.core.identity.NodeCoordinates;
import dev.protomolt.repository.PipeDocStore;
import dev.protomolt.repository.postgres.LedgerException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Expires PIPELINE copies older than a configured window by tombstoning them (the purger then
 * deletes their objects). Retention is opt-in: with no window configured nothing is ever swept, and
 * INTAKE copies are never age-swept. A window below the minimum (default one day) is refused when
 * the sweeper is built, so a mistyped setting cannot expire every row older than a minute.
 */
public final class RetentionSweeper {

  /** The name of the setting, as errors spell it. */
  public static final String SETTING = "protomolt.repository.retention.pipeline";

  public static final Duration DEFAULT_MINIMUM = Duration.ofDays(1);

  private static final String EXPIRED =
      "SELECT doc_id, graph_address_id, account_id, graph_id"
          + " FROM pipedocs WHERE row_kind = 'PIPELINE' AND status = 'ACTIVE' AND updated_at < ?"
          + " ORDER BY updated_at, node_id LIMIT ?";

  private final DataSource dataSource;
  private final PipeDocStore store;
  private final Optional<Duration> window;
  private final Clock clock;

  /**
   * @param window empty leaves every row forever
   * @throws IllegalArgumentException naming {@link #SETTING} when the window is below
   *     {@code minimum}, or the minimum is not positive
   */
  public RetentionSweeper(
      DataSource dataSource,
      PipeDocStore store,
      Optional<Duration> window,
      Duration minimum,
      Clock clock) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    this.store = Objects.requireNonNull(store, "store");
    this.window = Objects.requireNonNull(window, "window");
    this.clock = Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(minimum, "minimum");
    if (minimum.isNegative() || minimum.isZero()) {
      throw new IllegalArgumentException(SETTING + " minimum must be positive but was " + minimum);
    }
    window.ifPresent(
        w -> {
          if (w.compareTo(minimum) < 0) {
            throw new IllegalArgumentException(
                SETTING
                    + " is "
                    + w
                    + ", below the minimum "
                    + minimum
                    + "; a window that short would expire almost every pipeline copy");
          }
        });
  }

  /**
   * Reads the setting. Unset or blank means no retention. Only an ISO-8601 duration such as
   * {@code P30D} is accepted: a bare number is refused rather than guessed to be seconds or days.
   */
  public static Optional<Duration> parseSetting(String value) {
    if (value == null || value.isBlank()) {
      return Optional.empty();
    }
    String trimmed = value.trim();
    if (trimmed.chars().allMatch(Character::isDigit)) {
      throw new IllegalArgumentException(
          SETTING
              + " is the bare number '"
              + trimmed
              + "'; give an ISO-8601 duration with its unit, e.g. P30D");
    }
    try {
      return Optional.of(Duration.parse(trimmed));
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          SETTING + " must be an ISO-8601 duration such as P30D" + " but was '" + trimmed + "'");
    }
  }

  /** Whether a window is configured at all. */
  public boolean enabled() {
    return window.isPresent();
  }

  /**
   * Tombstones up to {@code limit} expired pipeline copies, oldest first.
   *
   * @return how many were tombstoned (each with its purge event published)
   */
  public int sweep(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("sweep limit must be at least 1 but was " + limit);
    }
    if (window.isEmpty()) {
      return 0;
    }
    Instant cutoff = clock.instant().minus(window.get());
    List<NodeCoordinates> expired = new ArrayList<>();
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(EXPIRED)) {
      s.setTimestamp(1, Timestamp.from(cutoff));
      s.setInt(2, limit);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          expired.add(
              new NodeCoordinates(
                  rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4)));
        }
      }
    } catch (SQLException e) {
      throw new LedgerException("finding pipeline copies older than " + cutoff, e);
    }
    int tombstoned = 0;
    for (NodeCoordinates coordinates : expired) {
      // Through the store, so each expiry publishes its purge event like any other delete.
      if (store.tombstone(coordinates, "RETENTION", false).isPresent()) {
        tombstoned++;
      }
    }
    return tombstoned;
  }
}
