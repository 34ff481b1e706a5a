package dev.protomolt.engine.hop;

import dev.protomolt.statemachines.ErrorNames;

/**
 * A hop service failure. A Java Lambda reports a thrown exception's fully-qualified class name as
 * its {@code errorType}, and that is the error name a state machine's {@code Retry} and
 * {@code Catch} match on, so every failure the state machine must tell apart is its own class:
 * {@link TransientHopFailure} is retried, every other one goes to the node's DLQ. The names are
 * {@link ErrorNames}' constants (decision 0810).
 */
public abstract sealed class HopFailure extends RuntimeException
    permits TransientHopFailure,
        BadPayloadFailure,
        RoutingFailure,
        MappingFailure,
        FilterFailure,
        OrphanedPinFailure,
        RtbfTooLargeFailure {

  public static final String TRANSIENT = ErrorNames.ENGINE_TRANSIENT;
  public static final String BAD_PAYLOAD = ErrorNames.BAD_PAYLOAD;
  public static final String ROUTING_FAILED = ErrorNames.ROUTING_FAILED;
  public static final String MAPPING_FAILED = ErrorNames.MAPPING_FAILED;
  public static final String FILTER_FAILED = ErrorNames.FILTER_FAILED;
  public static final String ORPHANED_PIN = ErrorNames.ORPHANED_PIN;

  /** A right-to-be-forgotten body too large to travel inline: refused, never written down. */
  public static final String RTBF_TOO_LARGE = ErrorNames.RTBF_TOO_LARGE;

  protected HopFailure(String message, Throwable cause) {
    super(message, cause);
  }

  /** The error name Step Functions sees: this exception's fully-qualified class name. */
  public String errorType() {
    return getClass().getName();
  }
}
