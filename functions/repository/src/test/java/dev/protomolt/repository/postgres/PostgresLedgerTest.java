package dev.protomolt.repository.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.store.DriveDirectoryContract;
import dev.protomolt.core.store.LedgerStore;
import dev.protomolt.core.store.LedgerStoreContract;
import dev.protomolt.proto.repository.v1.DocumentStatus;
import dev.protomolt.repository.fixtures.PostgresFixture;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
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
  void everyStateThatLosesItsAddressIsRecordedOnceWithWhatBeatIt() throws SQLException {
    UUID id = UUID.randomUUID();
    Instant t0 = Instant.parse("2026-02-01T00:00:00Z");
    long a = ledger.nextWriteToken();
    long b = ledger.nextWriteToken();
    long c = ledger.nextWriteToken();
    ledger.commit(pipelineRow(id, t0), b, t0.plusSeconds(1));
    // Older than what is stored: refused, and its own state is the one recorded.
    assertThat(ledger.commit(pipelineRow(id, t0), a, t0.plusSeconds(2)).applied()).isFalse();
    // Newer: replaces, and the replaced state is recorded.
    assertThat(ledger.commit(pipelineRow(id, t0), c, t0.plusSeconds(3)).applied()).isTrue();
    // The same save committing again (a retried call) supersedes nothing.
    assertThat(ledger.commit(pipelineRow(id, t0), c, t0.plusSeconds(4)).applied()).isTrue();

    assertThat(superseded(id))
        .containsExactlyInAnyOrder(
            "LOST_RACE " + a + " by " + b + " at " + t0.plusSeconds(2),
            "REPLACED " + b + " by " + c + " at " + t0.plusSeconds(3));
  }

  @Test
  void aPurgedStateIsNotSupersededAgain() throws SQLException {
    UUID id = UUID.randomUUID();
    Instant t0 = Instant.parse("2026-02-01T00:00:00Z");
    ledger.commit(pipelineRow(id, t0), ledger.nextWriteToken(), t0);
    try (Connection c = db.dataSource().getConnection();
        Statement s = c.createStatement()) {
      s.execute("UPDATE pipedocs SET status = 'PURGED' WHERE node_id = '" + id + "'");
    }
    ledger.commit(pipelineRow(id, t0), ledger.nextWriteToken(), t0.plusSeconds(1));

    assertThat(superseded(id)).isEmpty();
    assertThat(ledger.find(id).orElseThrow().status())
        .isEqualTo(DocumentStatus.DOCUMENT_STATUS_ACTIVE);
  }

  private static List<String> superseded(UUID id) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection c = db.dataSource().getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT reason, write_token, superseded_by, superseded_at FROM pipedoc_superseded"
                    + " WHERE node_id = ?")) {
      s.setObject(1, id);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          out.add(
              rs.getString(1)
                  + " "
                  + rs.getLong(2)
                  + " by "
                  + rs.getLong(3)
                  + " at "
                  + rs.getTimestamp(4).toInstant());
        }
      }
    }
    return out;
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
