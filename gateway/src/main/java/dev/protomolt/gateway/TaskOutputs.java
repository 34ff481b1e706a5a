package dev.protomolt.gateway;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import com.google.protobuf.util.JsonFormat;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.module.v1.Reject;
import dev.protomolt.proto.module.v1.RetryableFailure;

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
      Struct.Builder streamJson = Struct.newBuilder();
      // Through Struct so the stream keeps protobuf JSON's spelling (lowerCamelCase, int64 as
      // text).
      PARSER.merge(PRINTER.print(stream), streamJson);
      Struct out =
          Struct.newBuilder()
              .putFields("workUnitId", string(workUnitId))
              .putFields("outcome", string(outcome))
              .putFields("stream", Value.newBuilder().setStructValue(streamJson).build())
              .build();
      return PRINTER.print(out);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("a PipeStream did not round-trip through JSON", e);
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
