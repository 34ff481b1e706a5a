package dev.protomolt.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class TransactionsTest {

  private static EmbeddedPostgres postgres;
  private static DataSource db;

  @BeforeAll
  static void start() throws Exception {
    postgres = EmbeddedPostgres.builder().start();
    db = postgres.getPostgresDatabase();
    try (Connection c = db.getConnection();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE notes (id INT PRIMARY KEY)");
    }
  }

  @AfterAll
  static void stop() throws Exception {
    postgres.close();
  }

  @Test
  void commitsWhatSucceeds() throws SQLException {
    int inserted =
        Transactions.inTransaction(
            db,
            c -> {
              try (Statement s = c.createStatement()) {
                return s.executeUpdate("INSERT INTO notes VALUES (1), (2)");
              }
            });

    assertThat(inserted).isEqualTo(2);
    assertThat(count("id IN (1, 2)")).isEqualTo(2);
  }

  @Test
  void rollsBackEverythingWhenAStatementFails() throws SQLException {
    assertThatThrownBy(
            () ->
                Transactions.inTransaction(
                    db,
                    c -> {
                      try (Statement s = c.createStatement()) {
                        s.executeUpdate("INSERT INTO notes VALUES (10)");
                        return s.executeUpdate("INSERT INTO notes VALUES (10)");
                      }
                    }))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("duplicate key");

    assertThat(count("id = 10")).isZero();
  }

  @Test
  void rollsBackOnARuntimeFailureAndRethrowsIt() throws SQLException {
    assertThatThrownBy(
            () ->
                Transactions.inTransaction(
                    db,
                    c -> {
                      try (Statement s = c.createStatement()) {
                        s.executeUpdate("INSERT INTO notes VALUES (20)");
                      }
                      throw new IllegalStateException("refused by the domain");
                    }))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("refused by the domain");

    assertThat(count("id = 20")).isZero();
  }

  private static int count(String where) throws SQLException {
    try (Connection c = db.getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM notes WHERE " + where)) {
      rs.next();
      return rs.getInt(1);
    }
  }
}
