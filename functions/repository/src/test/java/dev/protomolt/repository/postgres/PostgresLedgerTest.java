package dev.protomolt.repository.postgres;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.store.DriveDirectoryContract;
import dev.protomolt.core.store.LedgerStore;
import dev.protomolt.core.store.LedgerStoreContract;
import dev.protomolt.repository.fixtures.PostgresFixture;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class PostgresLedgerTest extends LedgerStoreContract {

  private static final String SHA = "a".repeat(64);

  private static PostgresFixture db;
  private static PostgresLedgerStore ledger;

  @BeforeAll
  static void start() {
    db = PostgresFixture.start();
    ledger = new PostgresLedgerStore(db.dataSource());
    new PostgresDriveDirectory(db.dataSource()).apply(DriveDirectoryContract.created(ACCOUNT));
  }

  @AfterAll
  static void stop() throws Exception {
    db.close();
  }

  @Override
  protected LedgerStore ledger() {
    return ledger;
  }

  @Test
  void rawSqlCannotStoreBlankOrMismatchedIdentities() throws SQLException {
    try (Connection c = db.dataSource().getConnection();
        Statement s = c.createStatement()) {
      String insert =
          "INSERT INTO pipedocs (node_id, row_kind, account_id, doc_id, graph_id,"
              + " graph_address_id, cluster_id, drive_name, manifest, checksum, size_bytes,"
              + " datasource_id) VALUES (gen_random_uuid(), %s, 'acme', %s, %s, %s, %s, %s, '{}',"
              + " '"
              + SHA
              + "', 1, %s)";
      // A pipeline row claiming the intake graph.
      assertThatThrownBy(
              () ->
                  s.execute(
                      insert.formatted(
                          "'PIPELINE'",
                          "'d'",
                          "'intake:acme'",
                          "'n1'",
                          "NULL",
                          "'acme:pipeline'",
                          "NULL")))
          .hasMessageContaining("chk_pipedocs_row_kind");
      // An intake row with a cluster.
      assertThatThrownBy(
              () ->
                  s.execute(
                      insert.formatted(
                          "'INTAKE'",
                          "'d'",
                          "'intake:acme'",
                          "'ds'",
                          "'c1'",
                          "'acme:intake'",
                          "'ds'")))
          .hasMessageContaining("chk_pipedocs_row_kind");
      // An intake row in another account's intake graph.
      assertThatThrownBy(
              () ->
                  s.execute(
                      insert.formatted(
                          "'INTAKE'",
                          "'d'",
                          "'intake:other'",
                          "'ds'",
                          "NULL",
                          "'acme:intake'",
                          "'ds'")))
          .hasMessageContaining("chk_pipedocs_row_kind");
      // An intake row whose address is not its datasource.
      assertThatThrownBy(
              () ->
                  s.execute(
                      insert.formatted(
                          "'INTAKE'",
                          "'d'",
                          "'intake:acme'",
                          "'elsewhere'",
                          "NULL",
                          "'acme:intake'",
                          "'ds'")))
          .hasMessageContaining("chk_pipedocs_row_kind");
      // A blank doc id.
      assertThatThrownBy(
              () ->
                  s.execute(
                      insert.formatted(
                          "'PIPELINE'", "'  '", "'g'", "'n1'", "NULL", "'acme:pipeline'", "NULL")))
          .hasMessageContaining("pipedocs_doc_id_check");
      // A blank graph address.
      assertThatThrownBy(
              () ->
                  s.execute(
                      insert.formatted(
                          "'PIPELINE'", "'d'", "'g'", "''", "NULL", "'acme:pipeline'", "NULL")))
          .hasMessageContaining("pipedocs_graph_address_id_check");
      // A pipeline row on the intake drive.
      assertThatThrownBy(
              () ->
                  s.execute(
                      insert.formatted(
                          "'PIPELINE'", "'d'", "'g'", "'n1'", "NULL", "'acme:intake'", "NULL")))
          .hasMessageContaining("chk_pipedocs_drive");
      // The well-formed row goes in, so the refusals above are the constraints, not the SQL.
      s.execute(
          insert.formatted(
              "'INTAKE'", "'d'", "'intake:acme'", "'ds'", "NULL", "'acme:intake'", "'ds'"));
    }
  }
}
