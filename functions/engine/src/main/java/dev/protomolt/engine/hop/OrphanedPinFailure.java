package dev.protomolt.engine.hop;

/**
 * The graph version the hop is pinned to is gone from the store: dead-lettered, never run on
 * another version.
 * Its fully-qualified class name is the Lambda errorType Step Functions sees
 * ({@code dev.protomolt.statemachines.ErrorNames#ORPHANED_PIN}).
 */
public final class OrphanedPinFailure extends HopFailure {

  public OrphanedPinFailure(String message) {
    super(message, null);
  }

  public OrphanedPinFailure(String message, Throwable cause) {
    super(message, cause);
  }
}
