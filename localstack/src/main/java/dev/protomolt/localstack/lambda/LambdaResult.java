package dev.protomolt.localstack.lambda;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/** The outcome of one invocation: a response payload, or a function error. */
public sealed interface LambdaResult {

  /** The function returned; {@code payload} is its JSON response. */
  record Success(String payload) implements LambdaResult {
    public Success {
      Objects.requireNonNull(payload, "payload");
    }
  }

  /**
   * The function threw. Lambda answers such an invocation with status 200, the header
   * {@code X-Amz-Function-Error: Unhandled} and {@link #toJson()} as the payload.
   */
  record Failure(String errorType, String errorMessage, List<String> stackTrace)
      implements LambdaResult {

    private static final ObjectMapper JSON = new ObjectMapper();

    public Failure {
      Objects.requireNonNull(errorType, "errorType");
      stackTrace = List.copyOf(stackTrace);
    }

    /** The error document, in the field order Lambda's Java runtime writes it. */
    public String toJson() {
      ObjectNode error = JSON.createObjectNode();
      if (errorMessage == null) {
        error.putNull("errorMessage");
      } else {
        error.put("errorMessage", errorMessage);
      }
      error.put("errorType", errorType);
      ArrayNode trace = error.putArray("stackTrace");
      stackTrace.forEach(trace::add);
      return error.toString();
    }

    static Failure of(Throwable thrown) {
      List<String> trace =
          Arrays.stream(thrown.getStackTrace()).map(StackTraceElement::toString).toList();
      return new Failure(thrown.getClass().getName(), thrown.getMessage(), trace);
    }
  }
}
