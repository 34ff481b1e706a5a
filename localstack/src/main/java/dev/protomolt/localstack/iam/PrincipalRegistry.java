package dev.protomolt.localstack.iam;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The local cloud's IAM: which principal each access key belongs to. The template deployer
 * registers one key pair per function and one for the gateway's task; calls signed with a
 * registered key are checked against that principal's policies (see {@link
 * dev.protomolt.localstack.iam.enforce.IamEnforcement}).
 *
 * <p>Calls signed with a key that is not registered — the local cloud's own administrative
 * clients, the {@code protomolt} command, tests — pass unchecked, unless the registry is {@link
 * #strict() strict}, where they are denied like a caller with no policy (decision 1582).
 */
public final class PrincipalRegistry {

  /** The local cloud's account, as its ARNs name it. */
  public static final String LOCAL_ACCOUNT_ID = "000000000000";

  private final String accountId;
  private final Map<String, IamPrincipal> byAccessKey = new ConcurrentHashMap<>();
  private final Map<String, String> secrets = new ConcurrentHashMap<>();
  private volatile boolean strict;

  public PrincipalRegistry() {
    this(LOCAL_ACCOUNT_ID);
  }

  /** @param accountId the account ARNs are built in where a request names a resource by name */
  public PrincipalRegistry(String accountId) {
    if (accountId == null || !accountId.matches("[0-9]{12}")) {
      throw new IllegalArgumentException("accountId: must be 12 digits, was '" + accountId + "'");
    }
    this.accountId = accountId;
  }

  public String accountId() {
    return accountId;
  }

  /**
   * Registers (or replaces) the principal that signs with {@code accessKeyId}. The local S3
   * verifies signatures, so it learns the secret from here too.
   */
  public void register(String accessKeyId, String secretAccessKey, IamPrincipal principal) {
    if (accessKeyId == null || !accessKeyId.matches("[A-Za-z0-9_.-]{1,128}")) {
      throw new IllegalArgumentException(
          "accessKeyId: '" + accessKeyId + "' must be 1-128 letters, digits, '_', '.' or '-'");
    }
    if (secretAccessKey == null || secretAccessKey.isBlank()) {
      throw new IllegalArgumentException("secretAccessKey: must not be blank");
    }
    Objects.requireNonNull(principal, "principal");
    secrets.put(accessKeyId, secretAccessKey);
    byAccessKey.put(accessKeyId, principal);
  }

  public void remove(String accessKeyId) {
    byAccessKey.remove(accessKeyId);
    secrets.remove(accessKeyId);
  }

  /** The secret registered with {@code accessKeyId}, for servers that verify signatures. */
  public Optional<String> secretAccessKey(String accessKeyId) {
    return accessKeyId == null ? Optional.empty() : Optional.ofNullable(secrets.get(accessKeyId));
  }

  public Optional<IamPrincipal> principal(String accessKeyId) {
    return accessKeyId == null
        ? Optional.empty()
        : Optional.ofNullable(byAccessKey.get(accessKeyId));
  }

  /** Deny calls signed with unregistered keys (or unsigned) instead of passing them. */
  public void setStrict(boolean strict) {
    this.strict = strict;
  }

  public boolean strict() {
    return strict;
  }
}
