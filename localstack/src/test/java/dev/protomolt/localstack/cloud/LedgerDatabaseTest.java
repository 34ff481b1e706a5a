package dev.protomolt.localstack.cloud;

import static org.assertj.core.api.Assertions.assertThat;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A data folder from before the ledger had its own database keeps everything it recorded. */
class LedgerDatabaseTest {

  @TempDir Path data;

  @Test
  void aLedgerKeptInThePostgresDatabaseIsCopiedAndTheOriginalLeftAlone() throws Exception {
    try (EmbeddedPostgres pg =
        EmbeddedPostgres.builder().setDataDirectory(data.resolve("pg")).start()) {
      try (Connection c = pg.getPostgresDatabase().getConnection();
          Statement s = c.createStatement()) {
        s.execute("CREATE TABLE flyway_schema_history (version text)");
        s.execute("INSERT INTO flyway_schema_history VALUES ('450')");
      }

      LedgerDatabase.ensure(pg, "protomolt", "protomolt");
      // Idempotent: a second start finds both and changes nothing.
      LedgerDatabase.ensure(pg, "protomolt", "protomolt");

      try (Connection c = pg.getDatabase("protomolt", "protomolt").getConnection();
          Statement s = c.createStatement();
          ResultSet r = s.executeQuery("SELECT version, current_user FROM flyway_schema_history")) {
        assertThat(r.next()).isTrue();
        assertThat(r.getString(1)).isEqualTo("450");
        assertThat(r.getString(2)).isEqualTo("protomolt");
      }
      try (Connection c = pg.getPostgresDatabase().getConnection();
          Statement s = c.createStatement();
          ResultSet r = s.executeQuery("SELECT count(*) FROM flyway_schema_history")) {
        r.next();
        assertThat(r.getLong(1)).isEqualTo(1);
      }
    }
  }
}
