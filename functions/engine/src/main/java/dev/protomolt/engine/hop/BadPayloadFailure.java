package dev.protomolt.engine.hop;

/**
 * A hop payload that is not what the state contract says (a missing or malformed field, a
 * stream without a body): retrying cannot help, so the hop is dead-lettered.
 * Its fully-qualified class name is the Lambda errorType Step Functions sees
 * ({@code dev.protomolt.statemachines.ErrorNames#BAD_PAYLOAD}).
 */
public final class BadPayloadFailure extends HopFailure {

  public BadPayloadFailure(String message) {
    super(message, null);
  }

  public BadPayloadFailure(String message, Throwable cause) {
    super(message, cause);
  }
}
