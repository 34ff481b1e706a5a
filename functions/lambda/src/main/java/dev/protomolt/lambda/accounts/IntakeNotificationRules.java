package dev.protomolt.lambda.accounts;

import dev.protomolt.core.store.Drive;

/**
 * Makes uploads under {@code <account>/} of the shared intake bucket notify the intake function
 * (decision 0660). S3 rules match one literal prefix and accounts exist only at run time, so each
 * account's rule is added when the account is provisioned.
 */
@FunctionalInterface
public interface IntakeNotificationRules {

  /**
   * Ensures the rule for {@code accountId} exists on the bucket of {@code intakeDrive}; adding it
   * again is harmless.
   */
  void ensure(Drive intakeDrive, String accountId);
}
