package dev.protomolt.repository.memo;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.protomolt.core.memo.HopMemos;
import dev.protomolt.core.memo.MemoKey;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.repository.postgres.LedgerException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * {@link HopMemos} in the ledger's {@code hop_memos} table: one row per document and node, read
 * and written by primary key in one short statement each (decision 1813).
 */
public final class PostgresHopMemos implements HopMemos {

  private static final String FIND =
      "SELECT output_ref, output_checksum FROM hop_memos WHERE account_id = ? AND doc_id = ?"
          + " AND graph_id = ? AND node_id = ? AND key_digest = ?";

  private static final String RECORD =
      "INSERT INTO hop_memos (account_id, doc_id, graph_id, node_id, key_digest, input_checksum,"
          + " module_id, module_version, config_hash, output_ref, output_checksum, recorded_at)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
          + " ON CONFLICT (account_id, doc_id, graph_id, node_id) DO UPDATE SET"
          + " key_digest = EXCLUDED.key_digest, input_checksum = EXCLUDED.input_checksum,"
          + " module_id = EXCLUDED.module_id, module_version = EXCLUDED.module_version,"
          + " config_hash = EXCLUDED.config_hash, output_ref = EXCLUDED.output_ref,"
          + " output_checksum = EXCLUDED.output_checksum, recorded_at = EXCLUDED.recorded_at";

  private static final String FORGET =
      "DELETE FROM hop_memos WHERE account_id = ? AND doc_id = ? AND graph_id = ? AND node_id = ?";

  private static final String REUSED =
      "INSERT INTO memo_hits (module_id, hits, last_hit_at) VALUES (?, 1, ?)"
          + " ON CONFLICT (module_id) DO UPDATE SET hits = memo_hits.hits + 1,"
          + " last_hit_at = EXCLUDED.last_hit_at";

  private static final String HITS = "SELECT module_id, hits FROM memo_hits ORDER BY module_id";

  private final DataSource dataSource;
  private final InstantSource clock;

  public PostgresHopMemos(DataSource dataSource, InstantSource clock) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public Optional<Memoized> find(MemoKey key) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement find = c.prepareStatement(FIND)) {
      int i = where(find, key);
      find.setString(i, key.digest());
      try (ResultSet row = find.executeQuery()) {
        if (!row.next()) {
          return Optional.empty();
        }
        return Optional.of(
            new Memoized(DocumentReference.parseFrom(row.getBytes(1)), row.getString(2)));
      }
    } catch (SQLException e) {
      throw new LedgerException("reading the memo of " + describe(key) + " failed", e);
    } catch (InvalidProtocolBufferException e) {
      throw new LedgerException("the memo of " + describe(key) + " holds no reference", e);
    }
  }

  @Override
  public void record(MemoKey key, Memoized output) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement record = c.prepareStatement(RECORD)) {
      int i = where(record, key);
      record.setString(i++, key.digest());
      record.setString(i++, key.inputChecksum());
      record.setString(i++, key.moduleId());
      record.setString(i++, key.moduleVersion());
      record.setString(i++, key.configHash());
      record.setBytes(i++, output.output().toByteArray());
      record.setString(i++, output.checksum());
      record.setTimestamp(i, Timestamp.from(clock.instant()));
      record.executeUpdate();
    } catch (SQLException e) {
      throw new LedgerException("recording the memo of " + describe(key) + " failed", e);
    }
  }

  @Override
  public void forget(MemoKey key) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement forget = c.prepareStatement(FORGET)) {
      where(forget, key);
      forget.executeUpdate();
    } catch (SQLException e) {
      throw new LedgerException("forgetting the memo of " + describe(key) + " failed", e);
    }
  }

  @Override
  public void reused(MemoKey key) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement reused = c.prepareStatement(REUSED)) {
      reused.setString(1, key.moduleId());
      reused.setTimestamp(2, Timestamp.from(clock.instant()));
      reused.executeUpdate();
    } catch (SQLException e) {
      throw new LedgerException("counting the reuse of " + describe(key) + " failed", e);
    }
  }

  /** Hops answered from a memo so far, by module id (decision 1816). */
  public Map<String, Long> reusesByModule() {
    Map<String, Long> hits = new LinkedHashMap<>();
    try (Connection c = dataSource.getConnection();
        PreparedStatement read = c.prepareStatement(HITS);
        ResultSet rows = read.executeQuery()) {
      while (rows.next()) {
        hits.put(rows.getString(1), rows.getLong(2));
      }
    } catch (SQLException e) {
      throw new LedgerException("reading the memo hits failed", e);
    }
    return hits;
  }

  /** Binds the row's primary key; returns the next parameter index. */
  private static int where(PreparedStatement statement, MemoKey key) throws SQLException {
    statement.setString(1, key.accountId());
    statement.setString(2, key.docId());
    statement.setString(3, key.graphId());
    statement.setString(4, key.nodeId());
    return 5;
  }

  private static String describe(MemoKey key) {
    return "doc '"
        + key.docId()
        + "' at node '"
        + key.nodeId()
        + "' of graph '"
        + key.graphId()
        + "'";
  }
}
