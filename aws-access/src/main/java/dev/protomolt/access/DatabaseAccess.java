package dev.protomolt.access;

/** How a function reaches the ledger database. */
public sealed interface DatabaseAccess {

  /** A JDBC URL with a user and password: the local cloud, or any database outside AWS. */
  record Password(String jdbcUrl, String user, String password) implements DatabaseAccess {}

  /**
   * RDS Proxy with IAM authentication (decision 0656): TLS required, the password is a fresh
   * 15-minute token signed with the function's role for each new connection.
   */
  record RdsIam(String host, int port, String database, String user, String region)
      implements DatabaseAccess {

    public String jdbcUrl() {
      return "jdbc:postgresql://" + host + ":" + port + "/" + database + "?sslmode=require";
    }
  }
}
