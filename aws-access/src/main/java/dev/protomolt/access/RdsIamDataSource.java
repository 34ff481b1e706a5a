package dev.protomolt.access;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import java.util.function.Supplier;
import org.postgresql.ds.PGSimpleDataSource;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.rds.RdsUtilities;

/**
 * Connections to RDS Proxy with IAM authentication: each new physical connection presents a fresh
 * token (a SigV4-signed request, made locally, valid 15 minutes) as its password. The pool above
 * it keeps connections open past the token's life; only connecting needs a valid token.
 */
public final class RdsIamDataSource extends PGSimpleDataSource {

  private final transient Supplier<String> tokens;

  public RdsIamDataSource(DatabaseAccess.RdsIam access, Supplier<String> tokens) {
    this.tokens = Objects.requireNonNull(tokens, "tokens");
    setURL(access.jdbcUrl());
    setUser(access.user());
  }

  /** Tokens signed with {@code credentials} (the function's role) for the proxy's host and user. */
  public static Supplier<String> tokens(
      DatabaseAccess.RdsIam access, AwsCredentialsProvider credentials) {
    RdsUtilities rds =
        RdsUtilities.builder()
            .region(Region.of(access.region()))
            .credentialsProvider(credentials)
            .build();
    return () ->
        rds.generateAuthenticationToken(
            b -> b.hostname(access.host()).port(access.port()).username(access.user()));
  }

  @Override
  public synchronized Connection getConnection() throws SQLException {
    return super.getConnection(getUser(), tokens.get());
  }
}
