package dev.protomolt.repository.doclog;

import dev.protomolt.core.doclog.DocumentLogStore;
import dev.protomolt.core.doclog.DocumentLogStoreContract;
import dev.protomolt.repository.fixtures.PostgresFixture;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The durable store held to the same behaviour as the in-memory one. */
class PostgresDocumentLogStoreTest extends DocumentLogStoreContract {

  private static PostgresFixture db;

  @BeforeAll
  static void start() {
    db = PostgresFixture.start();
  }

  @AfterAll
  static void stop() throws Exception {
    db.close();
  }

  @Override
  protected DocumentLogStore newStore() {
    try (Connection c = db.dataSource().getConnection();
        Statement s = c.createStatement()) {
      s.execute("TRUNCATE document_logs, document_log_parts, document_log_annotations");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    return new PostgresDocumentLogStore(db.dataSource());
  }
}
