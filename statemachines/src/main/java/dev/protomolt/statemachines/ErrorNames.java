package dev.protomolt.statemachines;

import java.util.List;

/**
 * Error names the compiled state machine retries and catches. They are a contract with the
 * gateway (which fails a waiting Work task with {@code SendTaskFailure}) and the engine Lambdas.
 *
 * <p>A module outcome has one error name per disposition; the reason ({@code RejectReason},
 * {@code RetryReason}) and detail travel in the {@code Cause} as JSON. One name per disposition
 * keeps every Work state small (a definition must stay under the 1 MB request limit) and lets a
 * new reason be added to the contract without recompiling every graph version.
 */
public final class ErrorNames {

  private ErrorNames() {}

  /** The gateway fails a Work task with this for a module Reject (terminal, recorded). */
  public static final String MODULE_REJECT = "Module.Reject";

  /** The gateway fails a Work task with this for a RetryableFailure (retried with backoff). */
  public static final String MODULE_RETRYABLE = "Module.Retryable";

  /**
   * The gateway fails a Work task with this when the module's result cannot be handed to Step
   * Functions: its SendTaskSuccess output would pass the 256 KiB state limit and it may not go by
   * reference (a right-to-be-forgotten body). Nothing retries or catches it by name, so the
   * catch-all dead-letters the hop with this as its error code (decision 1656).
   */
  public static final String TASK_OUTPUT_TOO_LARGE = "Gateway.TaskOutputTooLarge";

  // Errors the engine Lambdas raise. A Java Lambda reports a thrown exception's fully-qualified
  // class name as its errorType, and that is the name Retry and Catch match, so each of these is
  // the name of an exception class in functions/engine (dev.protomolt.engine.hop). They are
  // strings here because this module must not depend on the engine; the engine's
  // HopErrorNamesTest checks each against its class (decision 0810).

  /** An engine Lambda signals a transient infrastructure failure (store or broker unavailable). */
  public static final String ENGINE_TRANSIENT = "dev.protomolt.engine.hop.TransientHopFailure";

  /** A hop payload that breaks the state contract; dead-lettered. */
  public static final String BAD_PAYLOAD = "dev.protomolt.engine.hop.BadPayloadFailure";

  /** Routing out of a node failed; dead-lettered. */
  public static final String ROUTING_FAILED = "dev.protomolt.engine.hop.RoutingFailure";

  /** A pre- or post-mapping failed; dead-lettered. */
  public static final String MAPPING_FAILED = "dev.protomolt.engine.hop.MappingFailure";

  /** A node filter could not be evaluated; dead-lettered. */
  public static final String FILTER_FAILED = "dev.protomolt.engine.hop.FilterFailure";

  /** The pinned graph version is gone; dead-lettered, never run on another version. */
  public static final String ORPHANED_PIN = "dev.protomolt.engine.hop.OrphanedPinFailure";

  /** A right-to-be-forgotten body too large to travel inline; refused and dead-lettered. */
  public static final String RTBF_TOO_LARGE = "dev.protomolt.engine.hop.RtbfTooLargeFailure";

  // Errors of Fail states the compiled definition raises itself: any name works there.

  /** Start found no node with the execution input's {@code node}. */
  public static final String UNKNOWN_NODE = "ProtoMolt.UnknownNode";

  /** Complete named a destination that is not a target of the node's outgoing edges. */
  public static final String UNKNOWN_DESTINATION = "ProtoMolt.UnknownDestination";

  /**
   * The hop was dead-lettered; the execution ends failed so it is visible as a failure. The dlq
   * function fails {@code N.DeadLettered}'s task token with it ({@code SendTaskFailure} sets any
   * name), so a redrive re-runs that state rather than a Fail state (decision 1525).
   */
  public static final String DEAD_LETTERED = "ProtoMolt.DeadLettered";

  public static final String STATES_ALL = "States.ALL";
  public static final String HEARTBEAT_TIMEOUT = "States.HeartbeatTimeout";
  public static final String TIMEOUT = "States.Timeout";

  /** Raised by the startExecution integration when the name is taken by a different input. */
  public static final String EXECUTION_ALREADY_EXISTS =
      "StepFunctions.ExecutionAlreadyExistsException";

  /** Transient errors of the startExecution integration. */
  public static final List<String> START_EXECUTION_TRANSIENT =
      List.of("StepFunctions.ExecutionLimitExceededException", "StepFunctions.SdkClientException");

  /**
   * The terminal failures of a module's hop other than its reject, as its Work state sees them:
   * retries run out, a result too large for the state, the queue's timeout. A Complete that handed
   * the hop on (decision 1842) sends these to the next node's Dlq, and everything else to its own.
   */
  public static final List<String> NEXT_MODULE_FAILURES =
      List.of(MODULE_RETRYABLE, TASK_OUTPUT_TOO_LARGE, TIMEOUT, HEARTBEAT_TIMEOUT);

  /** Transient invocation errors of the Lambda integration that AWS recommends retrying. */
  public static final List<String> LAMBDA_TRANSIENT =
      List.of(
          "Lambda.ServiceException",
          "Lambda.AWSLambdaException",
          "Lambda.SdkClientException",
          "Lambda.TooManyRequestsException",
          ENGINE_TRANSIENT);
}
