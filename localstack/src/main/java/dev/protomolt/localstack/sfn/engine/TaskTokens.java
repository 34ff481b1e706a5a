package dev.protomolt.localstack.sfn.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.protomolt.localstack.sfn.Clock;
import dev.protomolt.localstack.sfn.SfnApiException;
import dev.protomolt.localstack.sfn.asl.Json;
import dev.protomolt.localstack.sfn.asl.StatesError;
import dev.protomolt.localstack.sfn.store.ExecutionStore;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;

/**
 * Task tokens of callback ({@code .waitForTaskToken}) tasks. Postgres decides every race: a token
 * closes exactly once (success, failure, heartbeat or task timeout, or its execution ending), and
 * any later SendTask* call on it is refused with TaskTimedOut, as AWS does. The in-memory future
 * only wakes the waiting execution; after a restart the execution reads the outcome from the row.
 */
public final class TaskTokens {

  private static final SecureRandom RANDOM = new SecureRandom();

  private final ExecutionStore store;
  private final Clock clock;
  private final ConcurrentHashMap<String, Pending> pending = new ConcurrentHashMap<>();

  TaskTokens(ExecutionStore store, Clock clock) {
    this.store = store;
    this.clock = clock;
  }

  private static final class Pending {
    final String executionArn;
    final CompletableFuture<JsonNode> result = new CompletableFuture<>();
    Clock.Timer heartbeatTimer;
    Clock.Timer timeoutTimer;

    Pending(String executionArn) {
      this.executionArn = executionArn;
    }

    synchronized void cancelTimers() {
      if (heartbeatTimer != null) {
        heartbeatTimer.cancel();
      }
      if (timeoutTimer != null) {
        timeoutTimer.cancel();
      }
    }
  }

  static String newToken() {
    byte[] bytes = new byte[96];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** Registers interest before the token can possibly complete, so no completion is missed. */
  void register(String token, String executionArn) {
    pending.put(token, new Pending(executionArn));
  }

  /** Starts the heartbeat and timeout timers from their absolute deadlines (null = none). */
  void arm(String token, Instant heartbeatDeadline, Instant timeoutDeadline) {
    Pending p = pending.get(token);
    if (p == null) {
      return;
    }
    synchronized (p) {
      if (heartbeatDeadline != null) {
        p.heartbeatTimer =
            clock.schedule(
                heartbeatDeadline,
                () ->
                    expire(
                        token,
                        StatesError.HEARTBEAT_TIMEOUT,
                        "The task did not send a heartbeat in time"));
      }
      if (timeoutDeadline != null) {
        p.timeoutTimer =
            clock.schedule(
                timeoutDeadline,
                () ->
                    expire(
                        token,
                        StatesError.TIMEOUT,
                        "The task did not complete within TimeoutSeconds"));
      }
    }
  }

  /** Completes the in-memory wait from a row that is already closed (after a restart). */
  void settleFromRow(ExecutionStore.Token row) {
    Pending p = pending.get(row.token());
    if (p == null) {
      return;
    }
    switch (row.status()) {
      case "SUCCEEDED" -> p.result.complete(Json.parse(row.output()));
      case "FAILED", "TIMED_OUT" ->
          p.result.completeExceptionally(new StatesError(row.error(), row.cause()));
      default ->
          p.result.completeExceptionally(
              new StatesError(StatesError.RUNTIME, "the task token was closed with its execution"));
    }
  }

  /** Waits for the token's outcome: the task's result, or the error it failed with. */
  JsonNode await(String token) throws InterruptedException {
    Pending p = pending.get(token);
    try {
      return p.result.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof StatesError error) {
        throw error;
      }
      throw new IllegalStateException(e.getCause());
    } finally {
      p.cancelTimers();
      pending.remove(token);
    }
  }

  /** Abandons a registered wait (the task failed before or while invoking the Lambda). */
  void abandon(String token, StatesError why) {
    store.closeToken(token, "CLOSED", null, why.error(), why.cause(), clock.now());
    Pending p = pending.remove(token);
    if (p != null) {
      p.cancelTimers();
    }
  }

  /** SendTaskSuccess. */
  public void success(String token, String output) {
    if (output != null
        && output.getBytes(StandardCharsets.UTF_8).length > StateInterpreter.PAYLOAD_LIMIT_BYTES) {
      throw new SfnApiException(
          "ValidationException",
          "1 validation error detected: Value at "
              + "'output' failed to satisfy constraint: Member must have length less than or equal "
              + "to "
              + StateInterpreter.PAYLOAD_LIMIT_BYTES);
    }
    JsonNode parsed;
    try {
      parsed = Json.parse(output == null ? "" : output);
    } catch (IllegalArgumentException e) {
      throw new SfnApiException("InvalidOutput", "Invalid output: " + e.getMessage());
    }
    if (!store.closeToken(token, "SUCCEEDED", Json.print(parsed), null, null, clock.now())) {
      throw refusal(token);
    }
    Pending p = pending.get(token);
    if (p != null) {
      p.result.complete(parsed);
    }
  }

  /** SendTaskFailure; a missing error name becomes States.TaskFailed (decision 0452). */
  public void failure(String token, String error, String cause) {
    String name = error == null || error.isEmpty() ? StatesError.TASK_FAILED : error;
    String detail = cause == null ? "" : cause;
    if (!store.closeToken(token, "FAILED", null, name, detail, clock.now())) {
      throw refusal(token);
    }
    Pending p = pending.get(token);
    if (p != null) {
      p.result.completeExceptionally(new StatesError(name, detail));
    }
  }

  /** SendTaskHeartbeat: pushes the heartbeat deadline HeartbeatSeconds into the future. */
  public void heartbeat(String token) {
    ExecutionStore.Token row = store.findToken(token);
    if (row == null) {
      throw refusal(token);
    }
    if (row.heartbeatSeconds() == null) {
      if (!"WAITING".equals(row.status())) {
        throw refusal(token);
      }
      return;
    }
    Instant deadline = clock.now().plusSeconds(row.heartbeatSeconds());
    if (!store.heartbeat(token, deadline)) {
      throw refusal(token);
    }
    Pending p = pending.get(token);
    if (p != null) {
      synchronized (p) {
        if (p.heartbeatTimer != null) {
          p.heartbeatTimer.cancel();
        }
        p.heartbeatTimer =
            clock.schedule(
                deadline,
                () ->
                    expire(
                        token,
                        StatesError.HEARTBEAT_TIMEOUT,
                        "The task did not send a heartbeat in time"));
      }
    }
  }

  /** Closes every token of an execution that ended (stopped or timed out). */
  void closeAll(String executionArn) {
    store.closeTokensOf(executionArn, clock.now());
    pending.forEach(
        (token, p) -> {
          if (p.executionArn.equals(executionArn)) {
            p.cancelTimers();
            p.result.completeExceptionally(new StatesError(StatesError.RUNTIME, "execution ended"));
          }
        });
  }

  /** Stops every timer this process armed; the tokens stay WAITING for the next start. */
  void shutdown() {
    pending.values().forEach(Pending::cancelTimers);
    pending.clear();
  }

  private void expire(String token, String error, String cause) {
    if (store.expireToken(
        token, error.equals(StatesError.HEARTBEAT_TIMEOUT), error, cause, clock.now())) {
      Pending p = pending.get(token);
      if (p != null) {
        p.result.completeExceptionally(new StatesError(error, cause));
      }
    }
  }

  /** Why a SendTask* call on this token is refused, named as AWS names it. */
  private SfnApiException refusal(String token) {
    ExecutionStore.Token row = token == null ? null : store.findToken(token);
    if (row == null) {
      return new SfnApiException("InvalidToken", "Invalid Token: 'Invalid token'");
    }
    return new SfnApiException(
        "TaskTimedOut", "Task Timed Out: 'Provided task does not exist anymore'");
  }
}
