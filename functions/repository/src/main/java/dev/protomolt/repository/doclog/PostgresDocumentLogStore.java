package dev.protomolt.repository.doclog;

import dev.protomolt.core.doclog.DocumentLogState;
import dev.protomolt.core.doclog.DocumentLogStore;
import dev.protomolt.core.doclog.DocumentPart;
import dev.protomolt.core.doclog.LogKey;
import dev.protomolt.core.doclog.WindowSpec;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Document logs in PostgreSQL (tables {@code document_logs} and {@code document_log_parts},
 * migration V950; the seal's original location, V1674). Every call is one statement on a pooled connection; {@link #replace} is a
 * single {@code UPDATE ... WHERE version = ?}, so two writers that read the same state cannot both
 * move it.
 */
public final class PostgresDocumentLogStore implements DocumentLogStore {

  private static final String STATE_COLUMNS =
      "collection, path, window_size, window_overlap,"
          + " version, next_part_index, tail_start, tail_utf16, sealed_length, sealed_sha256,"
          + " sealed_original";

  private final DataSource dataSource;

  public PostgresDocumentLogStore(DataSource dataSource) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource: must not be null");
  }

  @Override
  public Optional<DocumentLogState> load(LogKey key) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT "
                    + STATE_COLUMNS
                    + " FROM document_logs WHERE collection = ? AND path = ?")) {
      s.setString(1, key.collection());
      s.setString(2, key.path());
      try (ResultSet r = s.executeQuery()) {
        return r.next() ? Optional.of(state(r)) : Optional.empty();
      }
    } catch (SQLException e) {
      throw new DocumentLogStorageException("loading log " + key, e);
    }
  }

  @Override
  public DocumentLogState createIfAbsent(DocumentLogState initial) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "INSERT INTO document_logs ("
                    + STATE_COLUMNS
                    + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (collection, path) DO"
                    + " NOTHING")) {
      bindState(s, initial);
      s.executeUpdate();
    } catch (SQLException e) {
      throw new DocumentLogStorageException("opening log " + initial.key(), e);
    }
    return load(initial.key())
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "log " + initial.key() + " vanished right after it was created"));
  }

  @Override
  public boolean replace(DocumentLogState next, long expectedVersion) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "UPDATE document_logs SET window_size = ?,"
                    + " window_overlap = ?, version = ?, next_part_index = ?, tail_start = ?,"
                    + " tail_utf16 = ?, sealed_length = ?, sealed_sha256 = ?, sealed_original = ?,"
                    + " updated_at = now()"
                    + " WHERE collection = ? AND path = ? AND version = ?")) {
      s.setInt(1, next.windows().size());
      s.setInt(2, next.windows().overlap());
      s.setLong(3, next.version());
      s.setInt(4, next.nextPartIndex());
      s.setLong(5, next.tailStart());
      s.setBytes(6, Utf16Bytes.encode(next.tail()));
      bindSeal(s, 7, next.seal());
      s.setString(10, next.key().collection());
      s.setString(11, next.key().path());
      s.setLong(12, expectedVersion);
      return s.executeUpdate() == 1;
    } catch (SQLException e) {
      throw new DocumentLogStorageException("moving log " + next.key(), e);
    }
  }

  @Override
  public void putPart(LogKey key, DocumentPart part) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "INSERT INTO document_log_parts (collection, path, part_index, start_offset,"
                    + " text_utf16, sha256) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (collection,"
                    + " path, part_index) DO UPDATE SET start_offset = EXCLUDED.start_offset,"
                    + " text_utf16 = EXCLUDED.text_utf16, sha256 = EXCLUDED.sha256")) {
      s.setString(1, key.collection());
      s.setString(2, key.path());
      s.setInt(3, part.index());
      s.setLong(4, part.start());
      s.setBytes(5, Utf16Bytes.encode(part.text()));
      s.setString(6, part.sha256());
      s.executeUpdate();
    } catch (SQLException e) {
      throw new DocumentLogStorageException("writing part " + part.index() + " of log " + key, e);
    }
  }

  @Override
  public List<DocumentPart> parts(LogKey key) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT part_index, start_offset, text_utf16,"
                    + " sha256 FROM document_log_parts WHERE collection = ? AND path = ?"
                    + " ORDER BY part_index")) {
      s.setString(1, key.collection());
      s.setString(2, key.path());
      List<DocumentPart> parts = new ArrayList<>();
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          parts.add(
              new DocumentPart(
                  r.getInt(1), r.getLong(2), Utf16Bytes.decode(r.getBytes(3)), r.getString(4)));
        }
      }
      return parts;
    } catch (SQLException e) {
      throw new DocumentLogStorageException("reading the parts of log " + key, e);
    }
  }

  private static void bindState(PreparedStatement s, DocumentLogState state) throws SQLException {
    s.setString(1, state.key().collection());
    s.setString(2, state.key().path());
    s.setInt(3, state.windows().size());
    s.setInt(4, state.windows().overlap());
    s.setLong(5, state.version());
    s.setInt(6, state.nextPartIndex());
    s.setLong(7, state.tailStart());
    s.setBytes(8, Utf16Bytes.encode(state.tail()));
    bindSeal(s, 9, state.seal());
  }

  private static void bindSeal(PreparedStatement s, int at, DocumentLogState.Seal seal)
      throws SQLException {
    if (seal == null) {
      s.setNull(at, Types.BIGINT);
      s.setNull(at + 1, Types.VARCHAR);
      s.setNull(at + 2, Types.VARCHAR);
    } else {
      s.setLong(at, seal.length());
      s.setString(at + 1, seal.sha256());
      if (seal.original().isEmpty()) {
        s.setNull(at + 2, Types.VARCHAR);
      } else {
        s.setString(at + 2, seal.original());
      }
    }
  }

  private static DocumentLogState state(ResultSet r) throws SQLException {
    long sealedLength = r.getLong(9);
    DocumentLogState.Seal seal =
        r.wasNull()
            ? null
            : new DocumentLogState.Seal(sealedLength, r.getString(10), r.getString(11));
    return new DocumentLogState(
        new LogKey(r.getString(1), r.getString(2)),
        new WindowSpec(r.getInt(3), r.getInt(4)),
        r.getLong(5),
        r.getInt(6),
        r.getLong(7),
        Utf16Bytes.decode(r.getBytes(8)),
        seal);
  }
}
