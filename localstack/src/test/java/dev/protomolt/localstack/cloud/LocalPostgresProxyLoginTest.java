package dev.protomolt.localstack.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded PostgreSQL answers as the stack's RDS Proxy does: TLS required by the client, the
 * cluster's database and master user, and the IAM token the client sends as password accepted.
 */
class LocalPostgresProxyLoginTest {

  @TempDir static Path data;
  static LocalPostgres postgres;

  @BeforeAll
  static void start() {
    postgres = LocalPostgres.start(data.resolve("postgres/data"), 0);
  }

  @AfterAll
  static void stop() {
    postgres.close();
  }

  /** The URL {@code DatabaseAccess.RdsIam} builds: the proxy's host and port, TLS required. */
  private static String proxyUrl() {
    return "jdbc:postgresql://127.0.0.1:"
        + postgres.port()
        + "/"
        + LocalPostgres.DATABASE
        + "?sslmode=require";
  }

  @Test
  void theStacksUserReachesTheMigratedLedgerOverTlsWithATokenAsPassword() throws SQLException {
    // The shape of an RDS IAM token: a presigned connect request, not a password anyone set.
    String token =
        "127.0.0.1:5432/?Action=connect&DBUser=protomolt&X-Amz-Algorithm=AWS4-HMAC-SHA256"
            + "&X-Amz-Credential=AKIAFUNCTION%2F20261201%2Fus-east-1%2Frds-db%2Faws4_request";
    try (Connection c = DriverManager.getConnection(proxyUrl(), LocalPostgres.PROXY_USER, token);
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT current_user, current_database(), ssl"
                    + " FROM pg_stat_ssl WHERE pid = pg_backend_pid()")) {
      assertThat(r.next()).isTrue();
      assertThat(r.getString(1)).isEqualTo("protomolt");
      assertThat(r.getString(2)).isEqualTo("protomolt");
      assertThat(r.getBoolean(3)).isTrue();
    }
    try (Connection c = DriverManager.getConnection(proxyUrl(), LocalPostgres.PROXY_USER, "x");
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT count(*) FROM flyway_schema_history")) {
      r.next();
      assertThat(r.getLong(1)).isPositive();
    }
  }

  @Test
  void aUserTheStackDoesNotNameIsRefused() {
    assertThatThrownBy(() -> DriverManager.getConnection(proxyUrl(), "mallory", "x").close())
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("mallory");
  }
}
