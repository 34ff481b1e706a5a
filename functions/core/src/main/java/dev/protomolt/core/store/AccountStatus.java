package dev.protomolt.core.store;

/** Whether an account may store documents right now. */
public interface AccountStatus {

  /** True when the account exists and is active; false for unknown or deactivated accounts. */
  boolean isActive(String accountId);

  /** Forgets anything remembered about the account, after an account event changed it. */
  default void invalidate(String accountId) {}
}
