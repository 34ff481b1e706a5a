package dev.protomolt.engine.hop;

/**
 * A transient infrastructure failure of a hop (the document store or the broker did not answer):
 * the compiled state machine retries it with backoff before the hop is dead-lettered.
 * Its fully-qualified class name is the Lambda errorType Step Functions sees
 * ({@code dev.protomolt.statemachines.ErrorNames#ENGINE_TRANSIENT}).
 */
public final class TransientHopFailure extends HopFailure {

  public TransientHopFailure(String message) {
    super(message, null);
  }

  public TransientHopFailure(String message, Throwable cause) {
    super(message, cause);
  }
}
