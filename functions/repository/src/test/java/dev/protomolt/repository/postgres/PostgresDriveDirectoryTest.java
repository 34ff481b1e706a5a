package dev.protomolt.repository.postgres;

import dev.protomolt.core.store.AccountStatus;
import dev.protomolt.core.store.DriveDirectory;
import dev.protomolt.core.store.DriveDirectoryContract;
import dev.protomolt.repository.fixtures.PostgresFixture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

class PostgresDriveDirectoryTest extends DriveDirectoryContract {

  private static PostgresFixture db;
  private static PostgresDriveDirectory directory;
  private static PostgresAccountStatus accounts;

  @BeforeAll
  static void start() {
    db = PostgresFixture.start();
    directory = new PostgresDriveDirectory(db.dataSource());
    accounts = new PostgresAccountStatus(db.dataSource());
  }

  @AfterAll
  static void stop() throws Exception {
    db.close();
  }

  @Override
  protected DriveDirectory directory() {
    return directory;
  }

  @Override
  protected AccountStatus accounts() {
    return accounts;
  }
}
