package dev.protomolt.access;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;

/**
 * The ledger's connection pool for either way of reaching the database: a password, or RDS Proxy
 * with a fresh IAM token per new connection signed with {@code credentials} (the process's role).
 */
public final class LedgerPool {

  private LedgerPool() {}

  /**
   * @param name the pool's name in logs
   * @param size most connections held open
   */
  public static HikariDataSource open(
      DatabaseAccess access, AwsCredentialsProvider credentials, String name, int size) {
    HikariConfig pool = new HikariConfig();
    switch (access) {
      case DatabaseAccess.Password p -> {
        pool.setJdbcUrl(p.jdbcUrl());
        if (!p.user().isEmpty()) {
          pool.setUsername(p.user());
          pool.setPassword(p.password());
        }
      }
      case DatabaseAccess.RdsIam iam ->
          pool.setDataSource(new RdsIamDataSource(iam, RdsIamDataSource.tokens(iam, credentials)));
    }
    pool.setMaximumPoolSize(size);
    pool.setMinimumIdle(0);
    pool.setPoolName(name);
    return new HikariDataSource(pool);
  }
}
