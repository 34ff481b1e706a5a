package dev.protomolt.repository.postgres;

import dev.protomolt.core.store.AccountDrives;
import dev.protomolt.core.store.Drive;
import dev.protomolt.core.store.DriveDirectory;
import dev.protomolt.core.store.DriveKind;
import dev.protomolt.db.Transactions;
import dev.protomolt.proto.events.v1.AccountEvent;
import dev.protomolt.proto.events.v1.DriveProvider;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/** Accounts and drives in the {@code accounts} / {@code drives} tables. */
public final class PostgresDriveDirectory implements DriveDirectory {

  private static final String UPSERT_ACCOUNT =
      "INSERT INTO accounts (account_id, active)"
          + " VALUES (?, TRUE) ON CONFLICT (account_id) DO UPDATE SET updated_at = now()";
  private static final String UPSERT_DRIVE =
      "INSERT INTO drives (drive_name, account_id,"
          + " drive_kind, bucket, prefix, region, credentials_ref, provider)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (drive_name) DO UPDATE SET"
          + " bucket = EXCLUDED.bucket, prefix = EXCLUDED.prefix, region = EXCLUDED.region,"
          + " credentials_ref = EXCLUDED.credentials_ref, provider = EXCLUDED.provider,"
          + " updated_at = now()";

  private final DataSource dataSource;

  public PostgresDriveDirectory(DataSource dataSource) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
  }

  @Override
  public void apply(AccountEvent event) {
    String accountId = AccountDrives.accountId(event);
    switch (event.getType()) {
      case ACCOUNT_EVENT_TYPE_CREATED, ACCOUNT_EVENT_TYPE_UPDATED ->
          provision(accountId, AccountDrives.of(event));
      case ACCOUNT_EVENT_TYPE_DEACTIVATED -> setActive(accountId, false);
      case ACCOUNT_EVENT_TYPE_REACTIVATED -> setActive(accountId, true);
      case ACCOUNT_EVENT_TYPE_UNSPECIFIED, UNRECOGNIZED ->
          throw new IllegalArgumentException(
              "type: must be CREATED, UPDATED, DEACTIVATED or"
                  + " REACTIVATED but was "
                  + event.getType());
    }
  }

  private void provision(String accountId, AccountDrives drives) {
    try {
      Transactions.inTransaction(
          dataSource,
          c -> {
            try (PreparedStatement s = c.prepareStatement(UPSERT_ACCOUNT)) {
              s.setString(1, accountId);
              s.executeUpdate();
            }
            try (PreparedStatement s = c.prepareStatement(UPSERT_DRIVE)) {
              for (Drive d : List.of(drives.intake(), drives.pipeline())) {
                s.setString(1, d.name());
                s.setString(2, d.accountId());
                s.setString(3, d.kind().name());
                s.setString(4, d.bucket());
                s.setString(5, d.prefix());
                s.setString(6, d.region());
                s.setString(7, d.credentialsRef());
                s.setString(8, providerColumn(d.provider()));
                s.addBatch();
              }
              return s.executeBatch();
            }
          });
    } catch (SQLException e) {
      throw new LedgerException("provisioning account " + accountId, e);
    }
  }

  private void setActive(String accountId, boolean active) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "UPDATE accounts SET active = ?, updated_at = now() WHERE account_id = ?")) {
      s.setBoolean(1, active);
      s.setString(2, accountId);
      if (s.executeUpdate() == 0) {
        throw new IllegalArgumentException("account_id: no provisioned account " + accountId);
      }
    } catch (SQLException e) {
      throw new LedgerException("updating account " + accountId, e);
    }
  }

  @Override
  public Optional<Drive> find(String accountId, DriveKind kind) {
    return findByName(kind.driveName(accountId));
  }

  @Override
  public Optional<Drive> findByName(String driveName) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT drive_name, account_id, drive_kind, bucket, prefix, region,"
                    + " credentials_ref, provider FROM drives WHERE drive_name = ?")) {
      s.setString(1, driveName);
      try (ResultSet rs = s.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        return Optional.of(
            new Drive(
                rs.getString(1),
                rs.getString(2),
                DriveKind.valueOf(rs.getString(3)),
                rs.getString(4),
                rs.getString(5),
                rs.getString(6),
                rs.getString(7),
                DriveProvider.valueOf("DRIVE_PROVIDER_" + rs.getString(8))));
      }
    } catch (SQLException e) {
      throw new LedgerException("reading drive " + driveName, e);
    }
  }

  private static String providerColumn(DriveProvider provider) {
    return provider == DriveProvider.DRIVE_PROVIDER_CLIENT ? "CLIENT" : "PROTOMOLT";
  }
}
