package dev.protomolt.localstack.sfn.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.protomolt.localstack.sfn.Arns;
import dev.protomolt.localstack.sfn.Clock;
import dev.protomolt.localstack.sfn.LambdaInvoker;
import dev.protomolt.localstack.sfn.SfnApiException;
import dev.protomolt.localstack.sfn.asl.AslParser;
import dev.protomolt.localstack.sfn.asl.Definition;
import dev.protomolt.localstack.sfn.asl.Json;
import dev.protomolt.localstack.sfn.asl.StatesError;
import dev.protomolt.localstack.sfn.store.ExecutionStore;
import dev.protomolt.localstack.sfn.store.StateMachineStore;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.DoubleSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * Starts, resumes, stops and finishes executions. Each execution runs on its own virtual thread;
 * Postgres holds its status, checkpoint and history, so {@link #resumeAll} after a restart picks
 * every RUNNING execution up where its checkpoint says.
 */
public final class ExecutionEngine implements ExecutionStarter {

  private static final Logger LOG = Logger.getLogger(ExecutionEngine.class.getName());

  /** AWS execution names: 1-80 characters, none of whitespace, brackets, wildcards or specials. */
  private static final Pattern INVALID_NAME_CHARS =
      Pattern.compile("[\\s<>{}\\[\\]?*\"#%\\\\^|~`$&,;:/\\x00-\\x1f\\x7f-\\x9f]");

  private final ExecutionStore executions;
  private final StateMachineStore machines;
  private final Arns arns;
  private final Clock clock;
  private final DoubleSupplier random;
  private final TaskTokens tokens;
  private final StateInterpreter interpreter;
  private final Map<String, RunningExecution> running = new ConcurrentHashMap<>();
  private volatile boolean shuttingDown;

  public ExecutionEngine(
      ExecutionStore executions,
      StateMachineStore machines,
      Arns arns,
      LambdaInvoker lambda,
      Clock clock,
      DoubleSupplier random) {
    this.executions = executions;
    this.machines = machines;
    this.arns = arns;
    this.clock = clock;
    this.random = random;
    this.tokens = new TaskTokens(executions, clock);
    TaskRunner taskRunner = new TaskRunner(executions, tokens, lambda, clock, this, arns.region());
    this.interpreter = new StateInterpreter(executions, taskRunner, clock, new RetryPolicy(random));
  }

  public TaskTokens tokens() {
    return tokens;
  }

  /** The runtime's clock: what redrive windows are measured against. */
  public Instant now() {
    return clock.now();
  }

  @Override
  public Started start(String targetArn, String name, String input, String parentArn) {
    Arns.Target target = arns.parseStateMachine(targetArn);
    String machineArn = arns.stateMachine(target.name());
    StateMachineStore.StateMachine machine = machines.find(machineArn);
    if (machine == null) {
      throw doesNotExist(targetArn);
    }
    String versionArn = null;
    String aliasArn = null;
    String definition = machine.definition();
    String roleArn = machine.roleArn();
    if (target.kind() == Arns.Kind.ALIAS) {
      aliasArn = arns.alias(target.name(), target.qualifier());
      StateMachineStore.Alias alias = machines.findAlias(aliasArn);
      if (alias == null) {
        throw doesNotExist(targetArn);
      }
      versionArn = route(alias);
    } else if (target.kind() == Arns.Kind.VERSION) {
      versionArn = arns.version(target.name(), Integer.parseInt(target.qualifier()));
    }
    if (versionArn != null) {
      StateMachineStore.Version version = machines.findVersion(versionArn);
      if (version == null) {
        throw doesNotExist(targetArn);
      }
      definition = version.definition();
      roleArn = version.roleArn();
    }
    String inputText = input == null ? "{}" : input;
    if (inputText.getBytes(StandardCharsets.UTF_8).length > StateInterpreter.PAYLOAD_LIMIT_BYTES) {
      throw new SfnApiException(
          "InvalidExecutionInput",
          "Invalid State Machine Execution Input: "
              + "larger than "
              + StateInterpreter.PAYLOAD_LIMIT_BYTES
              + " bytes");
    }
    JsonNode parsedInput;
    try {
      parsedInput = Json.parse(inputText);
    } catch (IllegalArgumentException e) {
      throw new SfnApiException(
          "InvalidExecutionInput",
          "Invalid State Machine Execution Input: '" + e.getMessage() + "'");
    }
    String executionName = name == null ? UUID.randomUUID().toString() : name;
    if (executionName.isEmpty()
        || executionName.length() > 80
        || INVALID_NAME_CHARS.matcher(executionName).find()) {
      throw new SfnApiException(
          "InvalidName",
          "Invalid Name: '"
              + executionName
              + "' (1 to 80 "
              + "characters, no whitespace, brackets, wildcards or \" # % \\ ^ | ~ ` $ & , ; : /)");
    }
    String executionArn = arns.execution(target.name(), executionName);
    Instant now = clock.now();
    ExecutionStore.Execution row =
        new ExecutionStore.Execution(
            executionArn,
            machineArn,
            versionArn,
            aliasArn,
            executionName,
            definition,
            roleArn,
            Json.print(parsedInput),
            "RUNNING",
            null,
            null,
            null,
            now,
            null,
            parentArn,
            null,
            null,
            null,
            null,
            null,
            0,
            null,
            null);
    if (!executions.insert(row)) {
      return existing(machineArn, executionName, parsedInput);
    }
    ExecutionContext context =
        new ExecutionContext(
            executionArn,
            executionName,
            parsedInput,
            now,
            roleArn,
            versionArn != null ? versionArn : machineArn,
            target.name(),
            0);
    RunningExecution run =
        new RunningExecution(
            executionArn, context, new History(executions, clock, executionArn, 0));
    ObjectNode details = Json.object();
    details.put("input", Json.print(parsedInput));
    details.put("roleArn", roleArn);
    if (versionArn != null) {
      details.put("stateMachineVersionArn", versionArn);
    }
    if (aliasArn != null) {
      details.put("stateMachineAliasArn", aliasArn);
    }
    run.history.record("ExecutionStarted", "executionStartedEventDetails", details);
    launch(run, AslParser.parse(definition), null, parsedInput, null, now);
    return new Started(executionArn, now);
  }

  /**
   * AWS name idempotency: the same name and input as a RUNNING execution returns it; a different
   * input, or any input once that execution has closed, is ExecutionAlreadyExists.
   */
  private Started existing(String machineArn, String name, JsonNode input) {
    ExecutionStore.Execution other = executions.findByName(machineArn, name);
    if (other != null
        && "RUNNING".equals(other.status())
        && Json.parse(other.input()).equals(input)) {
      return new Started(other.arn(), other.startedAt());
    }
    throw new SfnApiException(
        "ExecutionAlreadyExists",
        "Execution Already Exists: '" + (other == null ? name : other.arn()) + "'");
  }

  private String route(StateMachineStore.Alias alias) {
    JsonNode routing = Json.parse(alias.routing());
    double pick = random.getAsDouble() * 100;
    double seen = 0;
    for (JsonNode entry : routing) {
      seen += entry.path("weight").asDouble();
      if (pick < seen) {
        return entry.get("stateMachineVersionArn").asText();
      }
    }
    return routing.get(routing.size() - 1).get("stateMachineVersionArn").asText();
  }

  private static SfnApiException doesNotExist(String arn) {
    return new SfnApiException(
        "StateMachineDoesNotExist", "State Machine Does Not Exist: '" + arn + "'");
  }

  /** Resumes every RUNNING execution from its checkpoint; called once at start-up. */
  public void resumeAll() {
    for (ExecutionStore.Execution e : executions.running()) {
      String machineName = arns.parseStateMachine(e.stateMachineArn()).name();
      JsonNode input = Json.parse(e.input());
      ExecutionContext context =
          new ExecutionContext(
              e.arn(),
              e.name(),
              input,
              e.startedAt(),
              e.roleArn(),
              e.versionArn() != null ? e.versionArn() : e.stateMachineArn(),
              machineName,
              e.redriveCount());
      RunningExecution run =
          new RunningExecution(
              e.arn(),
              context,
              new History(executions, clock, e.arn(), executions.lastEventId(e.arn())));
      StateInterpreter.Resume resume = null;
      JsonNode stateInput = input;
      String state = null;
      if (e.currentState() != null) {
        state = e.currentState();
        stateInput = Json.parse(e.stateInput());
        JsonNode counts = Json.parse(e.retryCounts() == null ? "[]" : e.retryCounts());
        int[] retryCounts = new int[counts.size()];
        for (int i = 0; i < retryCounts.length; i++) {
          retryCounts[i] = counts.get(i).asInt();
        }
        resume = new StateInterpreter.Resume(retryCounts, e.retryAt(), e.pendingToken());
      }
      launch(
          run,
          AslParser.parse(e.definition()),
          state,
          stateInput,
          resume,
          e.redriveDate() != null ? e.redriveDate() : e.startedAt());
    }
  }

  /**
   * RedriveExecution: reopens a FAILED, ABORTED or TIMED_OUT execution under the same ARN and
   * re-enters the top-level state it stopped in, with that state's original input, fresh retry
   * counters and a new task token. States that completed before it are not run again: their
   * output is what the checkpointed input already carries. The execution timeout counts from the
   * redrive (decision 1720).
   *
   * @param clientToken the caller's idempotency token, or null; repeating the call that redrove
   *     the execution with the same token answers that redrive instead of refusing it
   * @return when the execution was redriven
   */
  public Instant redrive(String executionArn, String clientToken) {
    ExecutionStore.Execution e = executions.find(executionArn);
    if (e == null) {
      throw new SfnApiException(
          "ExecutionDoesNotExist", "Execution Does Not Exist: '" + executionArn + "'");
    }
    if ("RUNNING".equals(e.status())
        && clientToken != null
        && clientToken.equals(e.redriveClientToken())) {
      return e.redriveDate();
    }
    Instant now = clock.now();
    String reason = RedrivePolicy.refusal(e, executions.lastEventId(e.arn()), now);
    if (reason != null) {
      throw new SfnApiException("ExecutionNotRedrivable", reason);
    }
    long eventId = executions.lastEventId(e.arn()) + 1;
    int count = e.redriveCount() + 1;
    ObjectNode details = Json.object();
    details.putObject("executionRedrivenEventDetails").put("redriveCount", count);
    if (!executions.reopenForRedrive(e.arn(), now, clientToken, eventId, Json.print(details))) {
      // Another redrive (or nothing: a status we just read) won the race; say what it is now.
      ExecutionStore.Execution current = executions.find(e.arn());
      throw new SfnApiException(
          "ExecutionNotRedrivable", RedrivePolicy.statusRefusal(current.status()));
    }
    String machineName = arns.parseStateMachine(e.stateMachineArn()).name();
    JsonNode input = Json.parse(e.input());
    ExecutionContext context =
        new ExecutionContext(
            e.arn(),
            e.name(),
            input,
            e.startedAt(),
            e.roleArn(),
            e.versionArn() != null ? e.versionArn() : e.stateMachineArn(),
            machineName,
            count);
    RunningExecution run =
        new RunningExecution(e.arn(), context, new History(executions, clock, e.arn(), eventId));
    launch(
        run,
        AslParser.parse(e.definition()),
        e.currentState(),
        Json.parse(e.stateInput()),
        null,
        now);
    return now;
  }

  private void launch(
      RunningExecution run,
      Definition definition,
      String state,
      JsonNode input,
      StateInterpreter.Resume resume,
      Instant timeoutFrom) {
    running.put(run.arn, run);
    if (definition.timeoutSeconds() != null) {
      run.timeoutTimer =
          clock.schedule(
              timeoutFrom.plusSeconds(definition.timeoutSeconds()),
              () ->
                  close(
                      run.arn,
                      "TIMED_OUT",
                      null,
                      StatesError.TIMEOUT,
                      "The execution ran longer than the state machine's TimeoutSeconds"));
    }
    run.thread =
        Thread.ofVirtual()
            .name("sfn-" + run.context.executionName())
            .unstarted(
                () -> {
                  try {
                    JsonNode output =
                        interpreter.run(
                            run,
                            definition,
                            state == null ? definition.startAt() : state,
                            input,
                            true,
                            resume);
                    ObjectNode details = Json.object();
                    details.put("output", Json.print(output));
                    run.history.close(
                        "SUCCEEDED",
                        Json.print(output),
                        null,
                        null,
                        "ExecutionSucceeded",
                        "executionSucceededEventDetails",
                        details);
                    finish(run);
                  } catch (StatesError e) {
                    close(run.arn, "FAILED", null, e.error(), e.cause());
                  } catch (InterruptedException e) {
                    // Stopped, timed out or shutting down: whoever interrupted has recorded why.
                    running.remove(run.arn);
                  } catch (RuntimeException e) {
                    if (!shuttingDown) {
                      LOG.log(
                          Level.SEVERE, "execution " + run.arn + " failed inside the runtime", e);
                      close(run.arn, "FAILED", null, StatesError.RUNTIME, e.toString());
                    }
                  }
                });
    run.thread.start();
  }

  /**
   * StopExecution.
   *
   * @return when the execution stopped (now, or when it closed before)
   */
  public Instant stop(String executionArn, String error, String cause) {
    ExecutionStore.Execution e = executions.find(executionArn);
    if (e == null) {
      throw new SfnApiException(
          "ExecutionDoesNotExist", "Execution Does Not Exist: '" + executionArn + "'");
    }
    close(executionArn, "ABORTED", null, error, cause);
    return executions.find(executionArn).stoppedAt();
  }

  /** Closes a RUNNING execution with {@code status}; the first closer wins. */
  private void close(String arn, String status, String output, String error, String cause) {
    RunningExecution run = running.get(arn);
    History history =
        run != null
            ? run.history
            : new History(executions, clock, arn, executions.lastEventId(arn));
    ObjectNode details = Json.object();
    if (error != null) {
      details.put("error", error);
    }
    if (cause != null) {
      details.put("cause", cause);
    }
    String type =
        switch (status) {
          case "FAILED" -> "ExecutionFailed";
          case "ABORTED" -> "ExecutionAborted";
          case "TIMED_OUT" -> "ExecutionTimedOut";
          default -> throw new IllegalStateException(status);
        };
    String field = Character.toLowerCase(type.charAt(0)) + type.substring(1) + "EventDetails";
    if (!history.close(status, output, error, cause, type, field, details)) {
      return;
    }
    if (run != null) {
      finish(run);
      Thread thread = run.thread;
      if (thread != null && thread != Thread.currentThread()) {
        thread.interrupt();
      }
    }
    tokens.closeAll(arn);
  }

  private void finish(RunningExecution run) {
    if (run.timeoutTimer != null) {
      run.timeoutTimer.cancel();
    }
    running.remove(run.arn);
  }

  /**
   * Stops every execution thread without changing what Postgres says about it, so the next start
   * resumes them. Waits briefly for threads to notice.
   */
  public void shutdown() {
    shuttingDown = true;
    for (RunningExecution run : running.values()) {
      if (run.timeoutTimer != null) {
        run.timeoutTimer.cancel();
      }
      if (run.thread != null) {
        run.thread.interrupt();
      }
    }
    for (RunningExecution run : running.values()) {
      try {
        if (run.thread != null) {
          run.thread.join(2000);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    running.clear();
    tokens.shutdown();
  }
}
