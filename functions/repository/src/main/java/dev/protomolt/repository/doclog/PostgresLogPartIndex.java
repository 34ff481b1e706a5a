package dev.protomolt.repository.doclog;

import dev.protomolt.core.doclog.DocumentPart;
import dev.protomolt.core.doclog.LogKey;
import dev.protomolt.core.doclog.LogPartIndex;
import dev.protomolt.core.doclog.LogWords;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import javax.sql.DataSource;

/**
 * Document-log search in PostgreSQL (table {@code document_log_index}, migration V950): each part
 * is stored with its distinct words ({@link LogWords}) under a GIN index, and a query asks for the
 * parts whose words contain every query word, in (collection, path, index) order.
 */
public final class PostgresLogPartIndex implements LogPartIndex {

  private final DataSource dataSource;

  public PostgresLogPartIndex(DataSource dataSource) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource: must not be null");
  }

  @Override
  public void upsert(LogKey key, DocumentPart part) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "INSERT INTO document_log_index (collection, path, part_index, start_offset,"
                    + " text_utf16, words) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (collection, path,"
                    + " part_index) DO UPDATE SET start_offset = EXCLUDED.start_offset, text_utf16"
                    + " = EXCLUDED.text_utf16, words = EXCLUDED.words")) {
      s.setString(1, key.collection());
      s.setString(2, key.path());
      s.setInt(3, part.index());
      s.setLong(4, part.start());
      s.setBytes(5, Utf16Bytes.encode(part.text()));
      s.setArray(6, c.createArrayOf("text", LogWords.of(part.text()).toArray()));
      s.executeUpdate();
    } catch (SQLException e) {
      throw new DocumentLogStorageException("indexing part " + part.index() + " of log " + key, e);
    }
  }

  @Override
  public List<Hit> query(String terms, int limit) {
    Set<String> wanted = LogWords.ofQuery(terms, limit);
    try (Connection c = dataSource.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT collection, path, part_index,"
                    + " start_offset, text_utf16 FROM document_log_index WHERE words @> ?"
                    + " ORDER BY collection, path, part_index LIMIT ?")) {
      Array words = c.createArrayOf("text", wanted.toArray());
      s.setArray(1, words);
      s.setInt(2, limit);
      List<Hit> hits = new ArrayList<>();
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          hits.add(
              new Hit(
                  new LogKey(r.getString(1), r.getString(2)),
                  r.getInt(3),
                  r.getLong(4),
                  Utf16Bytes.decode(r.getBytes(5))));
        }
      }
      return hits;
    } catch (SQLException e) {
      throw new DocumentLogStorageException("searching logs for \"" + terms + "\"", e);
    }
  }
}
