package dev.protomolt.repository.doclog;

import dev.protomolt.core.doclog.LogPartIndex;
import dev.protomolt.core.doclog.LogPartIndexContract;
import dev.protomolt.repository.fixtures.PostgresFixture;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The durable index held to the same behaviour as the in-memory one. */
class PostgresLogPartIndexTest extends LogPartIndexContract {

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
  protected LogPartIndex newIndex() {
    try (Connection c = db.dataSource().getConnection();
        Statement s = c.createStatement()) {
      s.execute("TRUNCATE document_log_index");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    return new PostgresLogPartIndex(db.dataSource());
  }
}
