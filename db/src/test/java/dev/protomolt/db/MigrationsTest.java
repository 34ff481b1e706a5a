package dev.protomolt.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class MigrationsTest {

  private static EmbeddedPostgres postgres;

  @BeforeAll
  static void start() throws Exception {
    postgres = EmbeddedPostgres.builder().start();
  }

  @AfterAll
  static void stop() throws Exception {
    postgres.close();
  }

  @Test
  void appliesOnceThenIsANoOp() throws SQLException {
    Migrations.MigrationReport first = Migrations.apply(postgres.getPostgresDatabase());
    Migrations.MigrationReport second = Migrations.apply(postgres.getPostgresDatabase());

    assertThat(first.applied()).isGreaterThanOrEqualTo(1);
    assertThat(first.toVersion()).isNotBlank();
    assertThat(second.applied()).isZero();
    try (Connection c = postgres.getPostgresDatabase().getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW server_version")) {
      rs.next();
      assertThat(rs.getString(1)).as("PostgreSQL major the AWS stack runs").startsWith("17.");
    }
  }

  @Test
  void theLocalStepFunctionsRuntimesTablesAreNotPartOfTheProductionSchema() throws SQLException {
    Migrations.apply(postgres.getPostgresDatabase());
    try (Connection c = postgres.getPostgresDatabase().getConnection();
        ResultSet rs = c.getMetaData().getTables(null, "public", "sfn%", new String[] {"TABLE"})) {
      assertThat(rs.next()).as("an sfn_* table in the production schema").isFalse();
    }
  }

  @Test
  void driveNamesAreDerivedFromTheAccount() throws SQLException {
    Migrations.apply(postgres.getPostgresDatabase());
    try (Connection c = postgres.getPostgresDatabase().getConnection();
        Statement s = c.createStatement()) {
      s.execute("INSERT INTO accounts (account_id) VALUES ('acme')");
      s.execute(
          "INSERT INTO drives (drive_name, account_id, drive_kind, bucket, region, provider)"
              + " VALUES ('acme:intake', 'acme', 'INTAKE', 'b', 'us-east-1', 'CLIENT')");
      assertThatThrownBy(
              () ->
                  s.execute(
                      "INSERT INTO drives (drive_name, account_id, drive_kind, bucket, region,"
                          + " provider) VALUES ('other:pipeline', 'acme', 'PIPELINE', 'b',"
                          + " 'us-east-1', 'PROTOMOLT')"))
          .hasMessageContaining("chk_drive_name");
    }
  }
}
