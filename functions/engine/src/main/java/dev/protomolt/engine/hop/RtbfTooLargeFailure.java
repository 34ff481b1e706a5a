package dev.protomolt.engine.hop;

/**
 * A right-to-be-forgotten body too large to travel inline: refused, never written down.
 * Its fully-qualified class name is the Lambda errorType Step Functions sees
 * ({@code dev.protomolt.statemachines.ErrorNames#RTBF_TOO_LARGE}).
 */
public final class RtbfTooLargeFailure extends HopFailure {

  public RtbfTooLargeFailure(String message) {
    super(message, null);
  }

  public RtbfTooLargeFailure(String message, Throwable cause) {
    super(message, cause);
  }
}
