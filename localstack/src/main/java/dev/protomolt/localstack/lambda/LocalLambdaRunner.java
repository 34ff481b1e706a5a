package dev.protomolt.localstack.lambda;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.protomolt.localstack.meter.LocalCloudMeter;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Runs Lambda functions in this JVM. Functions are registered by name; the local Step Functions
 * runtime, the S3 notifier and the MSK pollers invoke them by that name with the JSON AWS would
 * send, and get back a response or a function error shaped as Lambda shapes it.
 */
public final class LocalLambdaRunner {

  // Lambda's own rule for a function name (the name part of an ARN).
  private static final Pattern FUNCTION_NAME = Pattern.compile("[a-zA-Z0-9_-]{1,64}");
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String region;
  private final String accountId;
  private final Map<String, LambdaFunction> functions = new ConcurrentHashMap<>();

  public LocalLambdaRunner(String region, String accountId) {
    this.region = Objects.requireNonNull(region, "region");
    this.accountId = Objects.requireNonNull(accountId, "accountId");
  }

  /** Registers {@code function} under {@code name}, replacing an earlier one of that name. */
  public void register(String name, LambdaFunction function) {
    Objects.requireNonNull(function, "function");
    if (name == null || !FUNCTION_NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "functionName: '"
              + name
              + "' must be 1-64 letters,"
              + " digits, hyphens or underscores, as Lambda requires");
    }
    functions.put(name, function);
  }

  public Set<String> functionNames() {
    return Set.copyOf(functions.keySet());
  }

  /** The ARN this function would have in AWS, as event sources and Step Functions name it. */
  public String functionArn(String name) {
    return "arn:aws:lambda:" + region + ":" + accountId + ":function:" + name;
  }

  /**
   * Invokes a function synchronously ({@code RequestResponse}).
   *
   * @param function a name or a function ARN, as the Invoke API accepts
   * @throws LambdaInvocationException when no such function is registered or {@code payload} is
   *     not JSON; a function that throws is a {@link LambdaResult.Failure}, not an exception
   */
  public LambdaResult invoke(String function, String payload) {
    String name = nameOf(function);
    LambdaFunction handler = functions.get(name);
    if (handler == null) {
      throw new LambdaInvocationException(
          LambdaInvocationException.RESOURCE_NOT_FOUND,
          "Function not found: " + functionArn(name),
          null);
    }
    String event = payload == null || payload.isEmpty() ? "{}" : payload;
    try {
      JSON.readTree(event);
    } catch (JsonProcessingException e) {
      throw new LambdaInvocationException(
          LambdaInvocationException.INVALID_REQUEST_CONTENT,
          "Could not parse request body into json: " + e.getOriginalMessage(),
          e);
    }
    LambdaContext context =
        new LambdaContext(name, UUID.randomUUID().toString(), functionArn(name));
    long start = System.nanoTime();
    try {
      String response = handler.handle(event, context);
      return new LambdaResult.Success(response == null ? "null" : response);
    } catch (Exception | LinkageError | AssertionError e) {
      return LambdaResult.Failure.of(e);
    } finally {
      // Invocations and their duration, for a bench's request count and GB-second price.
      LocalCloudMeter.add("lambda.invocations." + name, 1);
      LocalCloudMeter.add("lambda.nanos." + name, System.nanoTime() - start);
    }
  }

  private static String nameOf(String function) {
    if (function == null) {
      throw new LambdaInvocationException(
          LambdaInvocationException.RESOURCE_NOT_FOUND, "Function not found: null", null);
    }
    // arn:aws:lambda:region:account:function:name[:qualifier]
    if (function.startsWith("arn:")) {
      String[] parts = function.split(":");
      if (parts.length >= 7 && "function".equals(parts[5])) {
        return parts[6];
      }
    }
    return function;
  }
}
