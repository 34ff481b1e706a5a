package dev.protomolt.gateway;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import com.google.protobuf.util.JsonFormat;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.module.v1.Reject;
import dev.protomolt.proto.module.v1.RejectReason;
import dev.protomolt.proto.module.v1.RetryableFailure;
import java.nio.charset.StandardCharsets;

/**
 * The JSON the gateway hands Step Functions, exactly as statemachines/README.md "The state
 * contract" names it: the Work state's output and the causes of the typed module errors.
 */
public final class TaskOutputs {

  public static final String CONTINUE = "CONTINUE";
  public static final String NO_OP = "NO_OP";

  private static final JsonFormat.Printer PRINTER =
      JsonFormat.printer().omittingInsignificantWhitespace();
  private static final JsonFormat.Parser PARSER = JsonFormat.parser();

  private TaskOutputs() {}

  /** {@code { "workUnitId", "outcome", "stream" }} with the stream in protobuf JSON. */
  public static String success(String workUnitId, String outcome, PipeStream stream) {
    try {
      // The stream's printed JSON goes in as it is: one print per hop, not a print, a parse into
      // a Struct and a second print of the whole document's state.
      return "{\"workUnitId\":"
          + PRINTER.print(string(workUnitId))
          + ",\"outcome\":"
          + PRINTER.print(string(outcome))
          + ",\"stream\":"
          + PRINTER.print(stream)
          + "}";
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("a PipeStream always prints", e);
    }
  }

  /** Module.Reject cause: {@code { "reason", "detail" }}. */
  public static String rejectCause(Reject reject) {
    return print(
        Struct.newBuilder()
            .putFields("reason", string(reject.getReason().name()))
            .putFields("detail", string(reject.getDetail()))
            .build());
  }

  /** Module.Retryable cause: {@code { "reason", "detail", "retryAfterMs" }}. */
  public static String retryableCause(RetryableFailure failure) {
    return print(
        Struct.newBuilder()
            .putFields("reason", string(failure.getReason().name()))
            .putFields("detail", string(failure.getDetail()))
            .putFields(
                "retryAfterMs",
                Value.newBuilder().setNumberValue(failure.getRetryAfterMs()).build())
            .build());
  }

  /**
   * {@code Gateway.TaskOutputTooLarge} cause: {@code { "reason", "detail", "outputBytes",
   * "limitBytes" }}, the reason spelled as a module's Reject would spell it.
   */
  public static String outputTooLargeCause(TaskOutputTooLargeException e) {
    return print(
        Struct.newBuilder()
            .putFields("reason", string(RejectReason.REJECT_REASON_PAYLOAD_TOO_LARGE.name()))
            .putFields("detail", string(e.getMessage()))
            .putFields("outputBytes", Value.newBuilder().setNumberValue(e.outputBytes()).build())
            .putFields("limitBytes", Value.newBuilder().setNumberValue(e.limitBytes()).build())
            .build());
  }

  /** The stream's protobuf JSON in UTF-8 bytes, as it rides in the execution state. */
  public static int streamJsonBytes(PipeStream stream) {
    try {
      return utf8Bytes(PRINTER.print(stream));
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("a PipeStream always prints", e);
    }
  }

  /**
   * What the Work state's output weighs once its ResultSelector adds {@code "node"} to {@code
   * output}: the figure Step Functions holds to its state limit, a few bytes over the task output.
   */
  public static long workStateBytes(String output, String nodeId) {
    return utf8Bytes(output)
        + utf8Bytes(print(Struct.newBuilder().putFields("node", string(nodeId)).build()));
  }

  public static int utf8Bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }

  private static Value string(String s) {
    return Value.newBuilder().setStringValue(s).build();
  }

  private static String print(Struct s) {
    try {
      return PRINTER.print(s);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("a Struct always prints", e);
    }
  }
}
