package dev.protomolt.localstack.sfn.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.protomolt.localstack.sfn.Clock;
import dev.protomolt.localstack.sfn.LambdaInvoker;
import dev.protomolt.localstack.sfn.SfnApiException;
import dev.protomolt.localstack.sfn.asl.Json;
import dev.protomolt.localstack.sfn.asl.State;
import dev.protomolt.localstack.sfn.asl.StatesError;
import dev.protomolt.localstack.sfn.store.ExecutionStore;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;

/** Runs one attempt of a Task state's resource and returns its raw result. */
final class TaskRunner {

  private final ExecutionStore store;
  private final TaskTokens tokens;
  private final LambdaInvoker lambda;
  private final Clock clock;
  private final ExecutionStarter starter;
  private final String region;

  TaskRunner(
      ExecutionStore store,
      TaskTokens tokens,
      LambdaInvoker lambda,
      Clock clock,
      ExecutionStarter starter,
      String region) {
    this.store = store;
    this.tokens = tokens;
    this.lambda = lambda;
    this.clock = clock;
    this.starter = starter;
    this.region = region;
  }

  /**
   * One attempt. {@code pendingToken} is the token of a callback attempt interrupted by a restart;
   * {@code onToken} persists a newly issued token in the checkpoint.
   */
  JsonNode attempt(
      RunningExecution run,
      State.Task task,
      JsonNode effectiveInput,
      int retryCount,
      Instant entered,
      String pendingToken,
      Consumer<String> onToken)
      throws InterruptedException {
    Instant deadline =
        task.timeoutSeconds() == null ? null : clock.now().plusSeconds(task.timeoutSeconds());
    return switch (task.resource()) {
      case LAMBDA_INVOKE -> {
        JsonNode context =
            run.context.contextObject(task.name(), entered, retryCount, null, -1, null);
        JsonNode parameters = DataFlow.template(task.parameters(), effectiveInput, context);
        scheduled(run, task, "invoke", parameters);
        try {
          JsonNode result = invoke(parameters, effectiveInput, deadline);
          succeeded(run, "invoke", result);
          yield result;
        } catch (StatesError e) {
          failed(run, "invoke", e);
          throw e;
        }
      }
      case LAMBDA_INVOKE_WAIT_FOR_TASK_TOKEN ->
          callback(run, task, effectiveInput, retryCount, entered, deadline, pendingToken, onToken);
      case STATES_START_EXECUTION -> {
        JsonNode context =
            run.context.contextObject(task.name(), entered, retryCount, null, -1, null);
        JsonNode parameters = DataFlow.template(task.parameters(), effectiveInput, context);
        scheduled(run, task, "startExecution", parameters);
        try {
          JsonNode result = startExecution(run, parameters);
          succeeded(run, "startExecution", result);
          yield result;
        } catch (StatesError e) {
          failed(run, "startExecution", e);
          throw e;
        }
      }
    };
  }

  private JsonNode callback(
      RunningExecution run,
      State.Task task,
      JsonNode effectiveInput,
      int retryCount,
      Instant entered,
      Instant deadline,
      String pendingToken,
      Consumer<String> onToken)
      throws InterruptedException {
    String resource = "invoke.waitForTaskToken";
    String token = pendingToken;
    ExecutionStore.Token row = token == null ? null : store.findToken(token);
    if (row != null) {
      // Resumed after a restart: wait on the persisted token instead of invoking again.
      tokens.register(token, run.arn);
      row = store.findToken(token);
      if ("WAITING".equals(row.status())) {
        tokens.arm(token, row.heartbeatDeadline(), row.timeoutDeadline());
      } else {
        tokens.settleFromRow(row);
      }
    } else {
      token = TaskTokens.newToken();
      tokens.register(token, run.arn);
      JsonNode context =
          run.context.contextObject(task.name(), entered, retryCount, token, -1, null);
      JsonNode parameters;
      try {
        parameters = DataFlow.template(task.parameters(), effectiveInput, context);
      } catch (StatesError e) {
        tokens.abandon(token, e);
        throw e;
      }
      Instant heartbeatDeadline =
          task.heartbeatSeconds() == null ? null : clock.now().plusSeconds(task.heartbeatSeconds());
      store.insertToken(
          new ExecutionStore.Token(
              token,
              run.arn,
              task.name(),
              "WAITING",
              task.heartbeatSeconds(),
              heartbeatDeadline,
              deadline,
              null,
              null,
              null),
          clock.now());
      onToken.accept(token);
      tokens.arm(token, heartbeatDeadline, deadline);
      scheduled(run, task, resource, parameters);
      try {
        JsonNode submitted = invoke(parameters, effectiveInput, deadline);
        ObjectNode details = details(resource);
        details.put("output", Json.print(submitted));
        run.history.record("TaskSubmitted", "taskSubmittedEventDetails", details);
      } catch (StatesError e) {
        tokens.abandon(token, e);
        failed(run, resource, e);
        throw e;
      }
    }
    try {
      JsonNode result = tokens.await(token);
      succeeded(run, resource, result);
      return result;
    } catch (StatesError e) {
      if (e.error().equals(StatesError.TIMEOUT)
          || e.error().equals(StatesError.HEARTBEAT_TIMEOUT)) {
        ObjectNode details = details(resource);
        details.put("error", e.error());
        details.put("cause", e.cause());
        run.history.record("TaskTimedOut", "taskTimedOutEventDetails", details);
      } else {
        failed(run, resource, e);
      }
      throw e;
    }
  }

  /** lambda:invoke as the optimized integration shapes it. */
  private JsonNode invoke(JsonNode parameters, JsonNode effectiveInput, Instant deadline)
      throws InterruptedException {
    JsonNode nameNode = parameters.get("FunctionName");
    if (nameNode == null || !nameNode.isTextual()) {
      throw StatesError.runtime(
          "The field 'FunctionName' must be a string, got "
              + (nameNode == null ? "nothing" : Json.print(nameNode)));
    }
    JsonNode payload = parameters.has("Payload") ? parameters.get("Payload") : effectiveInput;
    CompletableFuture<JsonNode> outcome = new CompletableFuture<>();
    Thread.ofVirtual()
        .name("lambda-" + nameNode.textValue())
        .start(
            () -> {
              try {
                String response = lambda.invoke(nameNode.textValue(), Json.print(payload));
                outcome.complete(lambdaResult(response));
              } catch (LambdaInvoker.FunctionError e) {
                ObjectNode cause = Json.object();
                cause.put("errorMessage", e.errorMessage());
                cause.put("errorType", e.errorType());
                cause.putArray("stackTrace");
                outcome.completeExceptionally(new StatesError(e.errorType(), Json.print(cause)));
              } catch (RuntimeException e) {
                outcome.completeExceptionally(
                    new StatesError("Lambda.ServiceException", e.toString()));
              }
            });
    Clock.Timer timer =
        deadline == null
            ? null
            : clock.schedule(
                deadline,
                () ->
                    outcome.completeExceptionally(
                        new StatesError(
                            StatesError.TIMEOUT,
                            "The task did not complete within TimeoutSeconds")));
    try {
      return outcome.get();
    } catch (ExecutionException e) {
      throw (StatesError) e.getCause();
    } finally {
      if (timer != null) {
        timer.cancel();
      }
    }
  }

  private static JsonNode lambdaResult(String response) {
    JsonNode payload;
    if (response == null || response.isEmpty()) {
      payload = Json.NODES.nullNode();
    } else {
      try {
        payload = Json.parse(response);
      } catch (IllegalArgumentException e) {
        payload = Json.NODES.textNode(response);
      }
    }
    ObjectNode result = Json.object();
    result.put("ExecutedVersion", "$LATEST");
    result.set("Payload", payload);
    ObjectNode http = result.putObject("SdkHttpMetadata");
    http.putObject("HttpHeaders").put("Content-Type", "application/json");
    http.put("HttpStatusCode", 200);
    result.putObject("SdkResponseMetadata").put("RequestId", UUID.randomUUID().toString());
    result.put("StatusCode", 200);
    return result;
  }

  private JsonNode startExecution(RunningExecution run, JsonNode parameters) {
    JsonNode arn = parameters.get("StateMachineArn");
    if (arn == null || !arn.isTextual()) {
      throw StatesError.runtime("The field 'StateMachineArn' must be a string");
    }
    JsonNode input = parameters.get("Input");
    String inputText =
        input == null ? "{}" : input.isTextual() ? input.textValue() : Json.print(input);
    JsonNode name = parameters.get("Name");
    try {
      ExecutionStarter.Started started =
          starter.start(
              arn.textValue(),
              name == null || name.isNull() ? null : name.asText(),
              inputText,
              run.arn);
      ObjectNode result = Json.object();
      result.put("ExecutionArn", started.executionArn());
      result.put("StartDate", started.startDate().toEpochMilli());
      return result;
    } catch (SfnApiException e) {
      throw new StatesError("StepFunctions." + e.type() + "Exception", e.getMessage());
    }
  }

  private ObjectNode details(String resource) {
    ObjectNode details = Json.object();
    details.put("resourceType", resource.startsWith("invoke") ? "lambda" : "states");
    details.put("resource", resource);
    return details;
  }

  private void scheduled(
      RunningExecution run, State.Task task, String resource, JsonNode parameters) {
    ObjectNode details = details(resource);
    details.put("region", region);
    details.put("parameters", Json.print(parameters));
    if (task.timeoutSeconds() != null) {
      details.put("timeoutInSeconds", task.timeoutSeconds());
    }
    if (task.heartbeatSeconds() != null) {
      details.put("heartbeatInSeconds", task.heartbeatSeconds());
    }
    run.history.record("TaskScheduled", "taskScheduledEventDetails", details);
    run.history.record("TaskStarted", "taskStartedEventDetails", details(resource));
  }

  private void succeeded(RunningExecution run, String resource, JsonNode result) {
    ObjectNode details = details(resource);
    details.put("output", Json.print(result));
    run.history.record("TaskSucceeded", "taskSucceededEventDetails", details);
  }

  private void failed(RunningExecution run, String resource, StatesError e) {
    ObjectNode details = details(resource);
    details.put("error", e.error());
    details.put("cause", e.cause());
    run.history.record(
        e.error().equals(StatesError.TIMEOUT) ? "TaskTimedOut" : "TaskFailed",
        e.error().equals(StatesError.TIMEOUT)
            ? "taskTimedOutEventDetails"
            : "taskFailedEventDetails",
        details);
  }
}
