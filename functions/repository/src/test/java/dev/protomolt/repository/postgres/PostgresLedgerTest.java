package dev.protomolt.repository.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.store.Drive;
import dev.protomolt.core.store.DriveKind;
import dev.protomolt.core.store.PipeDocRecord;
import dev.protomolt.core.identity.RowKind;
import dev.protomolt.proto.events.v1.AccountEvent;
import dev.protomolt.proto.events.v1.AccountEventType;
import dev.protomolt.proto.events.v1.DriveBinding;
import dev.protomolt.proto.events.v1.DriveProvider;
import dev.protomolt.proto.repository.v1.DocumentStatus;
import dev.protomolt.proto.repository.v1.PipeDocManifest;
import dev.protomolt.repository.fixtures.PostgresFixture;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class PostgresLedgerTest {

  private static final String SHA = "a".repeat(64);
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private static PostgresFixture db;
  private static PostgresDriveDirectory drives;
  private static PostgresLedgerStore ledger;
  private static PostgresAccountStatus accounts;

  @BeforeAll
  static void start() {
    db = PostgresFixture.start();
    drives = new PostgresDriveDirectory(db.dataSource());
    ledger = new PostgresLedgerStore(db.dataSource());
    accounts = new PostgresAccountStatus(db.dataSource());
    drives.apply(created("acme"));
  }

  @AfterAll
  static void stop() throws Exception {
    db.close();
  }

  static AccountEvent created(String account) {
    return AccountEvent.newBuilder().setAccountId(account)
        .setType(AccountEventType.ACCOUNT_EVENT_TYPE_CREATED)
        .setIntakeDrive(DriveBinding.newBuilder().setBucket("cust").setPrefix("in/")
            .setRegion("us-east-1").setCredentialsRef("customer")
            .setProvider(DriveProvider.DRIVE_PROVIDER_CLIENT))
        .setPipelineDrive(DriveBinding.newBuilder().setBucket("plat").setRegion("us-east-1")
            .setCredentialsRef("platform").setProvider(DriveProvider.DRIVE_PROVIDER_PROTOMOLT))
        .build();
  }

  @Test
  void anAccountEventProvisionsBothDrives() {
    Drive intake = drives.find("acme", DriveKind.INTAKE).orElseThrow();
    Drive pipeline = drives.find("acme", DriveKind.PIPELINE).orElseThrow();

    assertThat(intake.bucket()).isEqualTo("cust");
    assertThat(intake.prefix()).isEqualTo("in/");
    assertThat(intake.provider()).isEqualTo(DriveProvider.DRIVE_PROVIDER_CLIENT);
    assertThat(pipeline.name()).isEqualTo("acme:pipeline");
    assertThat(pipeline.credentialsRef()).isEqualTo("platform");
    assertThat(drives.find("nobody", DriveKind.INTAKE)).isEmpty();
  }

  @Test
  void anEventMissingADriveProvisionsNothing() {
    AccountEvent half = created("half").toBuilder().clearPipelineDrive().build();

    assertThatThrownBy(() -> drives.apply(half))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("pipeline_drive");
    assertThat(drives.find("half", DriveKind.INTAKE)).isEmpty();
  }

  @Test
  void deactivationAndReactivationFlipTheAccount() {
    drives.apply(created("flip"));
    assertThat(accounts.isActive("flip")).isTrue();

    drives.apply(AccountEvent.newBuilder().setAccountId("flip")
        .setType(AccountEventType.ACCOUNT_EVENT_TYPE_DEACTIVATED).build());
    assertThat(accounts.isActive("flip")).isFalse();

    drives.apply(AccountEvent.newBuilder().setAccountId("flip")
        .setType(AccountEventType.ACCOUNT_EVENT_TYPE_REACTIVATED).build());
    assertThat(accounts.isActive("flip")).isTrue();
    assertThat(accounts.isActive("never-created")).isFalse();
  }

  @Test
  void upsertThenFindRoundTripsTheRowAndKeepsCreatedAt() {
    UUID id = UUID.randomUUID();
    PipeDocRecord row = pipelineRow(id, T0);
    ledger.upsert(row);
    ledger.upsert(pipelineRow(id, T0.plusSeconds(60)));

    PipeDocRecord found = ledger.find(id).orElseThrow();
    assertThat(found.createdAt()).isEqualTo(T0);
    assertThat(found.updatedAt()).isEqualTo(T0.plusSeconds(60));
    assertThat(found.manifest()).isEqualTo(row.manifest());
    assertThat(found.clusterId()).isEqualTo("c1");

    assertThat(ledger.tombstone(id, T0.plusSeconds(120))).isTrue();
    assertThat(ledger.find(id).orElseThrow().status())
        .isEqualTo(DocumentStatus.DOCUMENT_STATUS_PENDING_PURGE);
    assertThat(ledger.tombstone(id, T0.plusSeconds(180))).isFalse();
  }

  @Test
  void theLedgerRefusesAnIntakeRowWhoseIdentityIsCrossed() {
    PipeDocRecord crossed = new PipeDocRecord(UUID.randomUUID(), RowKind.INTAKE, "acme", "d1",
        "pipeline-graph", "ds1", null, "acme:intake", DocumentStatus.DOCUMENT_STATUS_ACTIVE,
        PipeDocManifest.getDefaultInstance(), SHA, 1, true, null, "ds1", 0, T0, T0);

    assertThatThrownBy(() -> ledger.upsert(crossed))
        .isInstanceOf(LedgerException.class)
        .hasMessageContaining("chk_pipedocs_row_kind");
  }

  @Test
  void rawSqlCannotStoreBlankOrMismatchedIdentities() throws SQLException {
    try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
      String insert = "INSERT INTO pipedocs (node_id, row_kind, account_id, doc_id, graph_id,"
          + " graph_address_id, cluster_id, drive_name, manifest, checksum, size_bytes,"
          + " datasource_id) VALUES (gen_random_uuid(), %s, 'acme', %s, %s, %s, %s, %s, '{}',"
          + " '" + SHA + "', 1, %s)";
      // A pipeline row claiming the intake graph.
      assertThatThrownBy(() -> s.execute(insert.formatted("'PIPELINE'", "'d'", "'intake:acme'",
          "'n1'", "NULL", "'acme:pipeline'", "NULL")))
          .hasMessageContaining("chk_pipedocs_row_kind");
      // An intake row with a cluster.
      assertThatThrownBy(() -> s.execute(insert.formatted("'INTAKE'", "'d'", "'intake:acme'",
          "'ds'", "'c1'", "'acme:intake'", "'ds'")))
          .hasMessageContaining("chk_pipedocs_row_kind");
      // An intake row in another account's intake graph.
      assertThatThrownBy(() -> s.execute(insert.formatted("'INTAKE'", "'d'", "'intake:other'",
          "'ds'", "NULL", "'acme:intake'", "'ds'")))
          .hasMessageContaining("chk_pipedocs_row_kind");
      // A blank doc id.
      assertThatThrownBy(() -> s.execute(insert.formatted("'PIPELINE'", "'  '", "'g'",
          "'n1'", "NULL", "'acme:pipeline'", "NULL")))
          .hasMessageContaining("pipedocs_doc_id_check");
      // A pipeline row on the intake drive.
      assertThatThrownBy(() -> s.execute(insert.formatted("'PIPELINE'", "'d'", "'g'",
          "'n1'", "NULL", "'acme:intake'", "NULL")))
          .hasMessageContaining("chk_pipedocs_drive");
      // The well-formed row goes in, so the refusals above are the constraints, not the SQL.
      s.execute(insert.formatted("'INTAKE'", "'d'", "'intake:acme'", "'ds'", "NULL",
          "'acme:intake'", "'ds'"));
    }
  }

  private static PipeDocRecord pipelineRow(UUID id, Instant at) {
    return new PipeDocRecord(id, RowKind.PIPELINE, "acme", "doc-1", "g1", "parser", "c1",
        "acme:pipeline", DocumentStatus.DOCUMENT_STATUS_ACTIVE,
        PipeDocManifest.newBuilder().setNodeId(id.toString()).setDocId("doc-1").build(),
        SHA, 42, false, "crawl", null, 3, at, at);
  }
}
