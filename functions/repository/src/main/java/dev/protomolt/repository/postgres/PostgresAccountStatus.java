package dev.protomolt.repository.postgres;

import dev.protomolt.core.store.AccountStatus;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * Account activity as the {@code accounts} table records it from account events. It stands in for
 * the account service the seed calls over gRPC; any other source implements the same port.
 */
public final class PostgresAccountStatus implements AccountStatus {

  private final DataSource dataSource;

  public PostgresAccountStatus(DataSource dataSource) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
  }

  @Override
  public boolean isActive(String accountId) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s =
            c.prepareStatement("SELECT active FROM accounts WHERE account_id = ?")) {
      s.setString(1, accountId);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() && rs.getBoolean(1);
      }
    } catch (SQLException e) {
      throw new LedgerException("reading account " + accountId, e);
    }
  }
}
