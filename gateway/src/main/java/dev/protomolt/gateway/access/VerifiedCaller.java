package dev.protomolt.gateway.access;

import dev.protomolt.identity.OperatorGrants;

/**
 * A caller as STS vouched for it: the ARN {@code GetCallerIdentity} answered with, and the IAM
 * principal the gateway's configuration names it by. A role session ({@code
 * arn:aws:sts::123:assumed-role/Role/session}) is the role ({@code arn:aws:iam::123:role/Role}),
 * so every task of a service shares one identity whatever its session name.
 *
 * @param arn what STS answered
 * @param principal the role or user ARN, without a path (see {@link #principalOf})
 */
public record VerifiedCaller(String arn, String principal) {

  /** The caller STS named by {@code arn}. */
  public static VerifiedCaller of(String arn) {
    return new VerifiedCaller(arn, principalOf(arn));
  }

  /**
   * The principal an ARN names, as configuration compares it: a role session becomes its role,
   * and a role or user ARN loses its path (names are unique in an account whatever the path, and
   * STS's assumed-role ARN carries none).
   *
   * @throws IllegalArgumentException for anything but a role, a role session or a user ARN
   */
  public static String principalOf(String arn) {
    return OperatorGrants.principalOf(arn);
  }
}
