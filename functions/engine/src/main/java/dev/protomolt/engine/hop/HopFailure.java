package dev.protomolt.engine.hop;

/**
 * A hop service failure with the error name Step Functions sees (the Lambda's errorType). The
 * state machine retries {@code ProtoMolt.Transient}; any other name goes to the node's DLQ.
 */
public final class HopFailure extends RuntimeException {

  public static final String TRANSIENT = "ProtoMolt.Transient";
  public static final String BAD_PAYLOAD = "ProtoMolt.BadPayload";
  public static final String ROUTING_FAILED = "ProtoMolt.RoutingFailed";
  public static final String MAPPING_FAILED = "ProtoMolt.MappingFailed";
  /** A right-to-be-forgotten body too large to travel inline: refused, never written down. */
  public static final String RTBF_TOO_LARGE = "ProtoMolt.RtbfTooLarge";

  private final String errorType;

  public HopFailure(String errorType, String message) {
    super(message);
    this.errorType = errorType;
  }

  public HopFailure(String errorType, String message, Throwable cause) {
    super(message, cause);
    this.errorType = errorType;
  }

  public String errorType() {
    return errorType;
  }
}
