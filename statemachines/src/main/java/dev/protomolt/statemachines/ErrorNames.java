package dev.protomolt.statemachines;

import dev.protomolt.proto.module.v1.RejectReason;
import dev.protomolt.proto.module.v1.RetryReason;
import java.util.Arrays;
import java.util.List;

/**
 * Error names the compiled state machine retries and catches. They are a contract with the
 * gateway (which fails a waiting Work task with {@code SendTaskFailure}) and the engine Lambdas.
 * Module outcome names are derived from the proto enums, so a new reason in the contract shows up
 * in every compiled definition (and makes the golden files stale, which is the point).
 */
public final class ErrorNames {

  private ErrorNames() {}

  /** The gateway fails a Work task with {@code Module.Reject.<REASON>} for a module Reject. */
  public static final String MODULE_REJECT_PREFIX = "Module.Reject.";

  /** The gateway fails a Work task with {@code Module.Retry.<REASON>} for a RetryableFailure. */
  public static final String MODULE_RETRY_PREFIX = "Module.Retry.";

  /** An engine Lambda signals a transient infrastructure failure (store or broker unavailable). */
  public static final String ENGINE_TRANSIENT = "ProtoMolt.Transient";

  /** Start found no node with the execution input's {@code node}. */
  public static final String UNKNOWN_NODE = "ProtoMolt.UnknownNode";

  /** Complete named a destination that is not a target of the node's outgoing edges. */
  public static final String UNKNOWN_DESTINATION = "ProtoMolt.UnknownDestination";

  /** The hop was dead-lettered; the execution ends failed so it is visible as a failure. */
  public static final String DEAD_LETTERED = "ProtoMolt.DeadLettered";

  public static final String STATES_ALL = "States.ALL";
  public static final String HEARTBEAT_TIMEOUT = "States.HeartbeatTimeout";
  public static final String TIMEOUT = "States.Timeout";

  /** Raised by the startExecution integration when the name is taken by a different input. */
  public static final String EXECUTION_ALREADY_EXISTS = "StepFunctions.ExecutionAlreadyExistsException";

  /** Transient errors of the startExecution integration. */
  public static final List<String> START_EXECUTION_TRANSIENT =
      List.of("StepFunctions.ExecutionLimitExceededException", "StepFunctions.SdkClientException");

  /** Transient invocation errors of the Lambda integration that AWS recommends retrying. */
  public static final List<String> LAMBDA_TRANSIENT =
      List.of(
          "Lambda.ServiceException",
          "Lambda.AWSLambdaException",
          "Lambda.SdkClientException",
          "Lambda.TooManyRequestsException",
          ENGINE_TRANSIENT);

  /** {@code Module.Reject.<REASON>} for every reject reason of the module contract. */
  public static List<String> moduleRejects() {
    return Arrays.stream(RejectReason.values())
        .filter(r -> r != RejectReason.UNRECOGNIZED)
        .map(r -> MODULE_REJECT_PREFIX + r.name().substring("REJECT_REASON_".length()))
        .toList();
  }

  /** {@code Module.Retry.<REASON>} for every retry reason of the module contract. */
  public static List<String> moduleRetries() {
    return Arrays.stream(RetryReason.values())
        .filter(r -> r != RetryReason.UNRECOGNIZED)
        .map(r -> MODULE_RETRY_PREFIX + r.name().substring("RETRY_REASON_".length()))
        .toList();
  }
}
