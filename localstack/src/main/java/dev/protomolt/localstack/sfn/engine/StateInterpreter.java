package dev.protomolt.localstack.sfn.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.protomolt.localstack.sfn.Clock;
import dev.protomolt.localstack.sfn.asl.ChoiceRule;
import dev.protomolt.localstack.sfn.asl.Definition;
import dev.protomolt.localstack.sfn.asl.Json;
import dev.protomolt.localstack.sfn.asl.State;
import dev.protomolt.localstack.sfn.asl.StatesError;
import dev.protomolt.localstack.sfn.store.ExecutionStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs the states of a definition (or of a Map's item processor) from a start state to the end.
 * Only the top level checkpoints; see decision 0451 for what a restart re-enters.
 */
final class StateInterpreter {

  /** Where a restarted execution picks up inside its checkpointed state. */
  record Resume(int[] retryCounts, Instant retryAt, String pendingToken) {}

  private record Step(String next, JsonNode output) {}

  @FunctionalInterface
  private interface Attempt {
    JsonNode run(int retryCount, String pendingToken) throws InterruptedException;
  }

  /** AWS caps every state's input and output at 256 KiB of UTF-8 JSON. */
  static final int PAYLOAD_LIMIT_BYTES = 256 * 1024;

  /** Retry counts of the state now being attempted, for the token checkpoint. */
  private final ThreadLocal<String> currentCounts = ThreadLocal.withInitial(() -> "[]");

  private final ExecutionStore store;
  private final TaskRunner tasks;
  private final Clock clock;
  private final RetryPolicy retry;

  StateInterpreter(ExecutionStore store, TaskRunner tasks, Clock clock, RetryPolicy retry) {
    this.store = store;
    this.tasks = tasks;
    this.clock = clock;
    this.retry = retry;
  }

  JsonNode run(
      RunningExecution run,
      Definition definition,
      String startAt,
      JsonNode input,
      boolean top,
      Resume resume)
      throws InterruptedException {
    String name = startAt;
    JsonNode data = input;
    while (true) {
      if (Thread.interrupted()) {
        throw new InterruptedException();
      }
      State state = definition.state(name);
      Instant entered = clock.now();
      ObjectNode entering = Json.object();
      entering.put("name", name);
      entering.put("input", Json.print(data));
      run.history.record(kind(state) + "StateEntered", "stateEnteredEventDetails", entering);
      if (top && resume == null) {
        store.checkpoint(run.arn, name, Json.print(data), "[]", null, null);
      }
      Step step =
          switch (state) {
            case State.Task task -> task(run, task, data, entered, top, resume);
            case State.Map map -> map(run, map, data, entered, top, resume);
            case State.Pass pass -> pass(run, pass, data, entered);
            case State.Choice choice -> choice(run, choice, data, entered);
            case State.Succeed succeed -> {
              JsonNode context = context(run, succeed.name(), entered);
              JsonNode effective = DataFlow.select(data, succeed.inputPath(), context, "InputPath");
              yield new Step(
                  null, DataFlow.select(effective, succeed.outputPath(), context, "OutputPath"));
            }
            case State.Fail fail ->
                throw new StatesError(
                    fail.error() == null ? "" : fail.error(),
                    fail.cause() == null ? "" : fail.cause());
          };
      resume = null;
      String printed = Json.print(step.output());
      if (printed.getBytes(StandardCharsets.UTF_8).length > PAYLOAD_LIMIT_BYTES) {
        throw new StatesError(
            StatesError.DATA_LIMIT_EXCEEDED,
            "The state/task '"
                + name
                + "' returned a result with a size exceeding the maximum number of bytes service "
                + "limit ("
                + PAYLOAD_LIMIT_BYTES
                + ")");
      }
      ObjectNode exiting = Json.object();
      exiting.put("name", name);
      exiting.put("output", printed);
      run.history.record(kind(state) + "StateExited", "stateExitedEventDetails", exiting);
      if (step.next() == null) {
        return step.output();
      }
      name = step.next();
      data = step.output();
    }
  }

  private static String kind(State state) {
    return switch (state) {
      case State.Task t -> "Task";
      case State.Map m -> "Map";
      case State.Pass p -> "Pass";
      case State.Choice c -> "Choice";
      case State.Succeed s -> "Succeed";
      case State.Fail f -> "Fail";
    };
  }

  private JsonNode context(RunningExecution run, String state, Instant entered) {
    return run.context.contextObject(state, entered, 0, null, -1, null);
  }

  private Step pass(RunningExecution run, State.Pass pass, JsonNode raw, Instant entered) {
    JsonNode context = context(run, pass.name(), entered);
    JsonNode effective = DataFlow.select(raw, pass.inputPath(), context, "InputPath");
    effective = DataFlow.template(pass.parameters(), effective, context);
    JsonNode result = pass.result() != null ? pass.result() : effective;
    JsonNode output = DataFlow.placeResult(raw, result, pass.resultPath());
    return new Step(pass.next(), DataFlow.select(output, pass.outputPath(), context, "OutputPath"));
  }

  private Step choice(RunningExecution run, State.Choice choice, JsonNode raw, Instant entered) {
    JsonNode context = context(run, choice.name(), entered);
    JsonNode effective = DataFlow.select(raw, choice.inputPath(), context, "InputPath");
    String next = null;
    for (ChoiceRule.Branch branch : choice.choices()) {
      if (branch.rule().matches(effective, context)) {
        next = branch.next();
        break;
      }
    }
    if (next == null) {
      next = choice.defaultNext();
    }
    if (next == null) {
      throw new StatesError(
          StatesError.NO_CHOICE_MATCHED,
          "No Matches! in state '" + choice.name() + "' for input " + Json.print(effective));
    }
    return new Step(next, DataFlow.select(effective, choice.outputPath(), context, "OutputPath"));
  }

  private Step task(
      RunningExecution run,
      State.Task task,
      JsonNode raw,
      Instant entered,
      boolean top,
      Resume resume)
      throws InterruptedException {
    return recover(
        run,
        task.name(),
        raw,
        task.retriers(),
        task.catchers(),
        task.next(),
        top,
        resume,
        (retryCount, pendingToken) -> {
          JsonNode context =
              run.context.contextObject(task.name(), entered, retryCount, null, -1, null);
          JsonNode effective = DataFlow.select(raw, task.inputPath(), context, "InputPath");
          JsonNode result =
              tasks.attempt(
                  run,
                  task,
                  effective,
                  retryCount,
                  entered,
                  pendingToken,
                  token -> {
                    if (top) {
                      store.checkpoint(
                          run.arn, task.name(), Json.print(raw), currentCounts.get(), null, token);
                    }
                  });
          result = DataFlow.template(task.resultSelector(), result, context);
          JsonNode output = DataFlow.placeResult(raw, result, task.resultPath());
          return DataFlow.select(output, task.outputPath(), context, "OutputPath");
        });
  }

  private Step map(
      RunningExecution run,
      State.Map map,
      JsonNode raw,
      Instant entered,
      boolean top,
      Resume resume)
      throws InterruptedException {
    return recover(
        run,
        map.name(),
        raw,
        map.retriers(),
        map.catchers(),
        map.next(),
        top,
        resume,
        (retryCount, pendingToken) -> {
          JsonNode context =
              run.context.contextObject(map.name(), entered, retryCount, null, -1, null);
          JsonNode effective = DataFlow.select(raw, map.inputPath(), context, "InputPath");
          JsonNode items = DataFlow.select(effective, map.itemsPath(), context, "ItemsPath");
          if (!items.isArray()) {
            throw StatesError.runtime(
                "Map state '"
                    + map.name()
                    + "': ItemsPath '"
                    + map.itemsPath()
                    + "' must select an array, got "
                    + Json.print(items));
          }
          ObjectNode started = Json.object();
          started.put("length", items.size());
          run.history.record("MapStateStarted", "mapStateStartedEventDetails", started);
          JsonNode results;
          try {
            results = iterations(run, map, effective, items, entered, retryCount);
          } catch (StatesError e) {
            run.history.record("MapStateFailed", null, null);
            throw e;
          }
          run.history.record("MapStateSucceeded", null, null);
          JsonNode result = DataFlow.template(map.resultSelector(), results, context);
          JsonNode output = DataFlow.placeResult(raw, result, map.resultPath());
          return DataFlow.select(output, map.outputPath(), context, "OutputPath");
        });
  }

  /**
   * Runs every item through the item processor, at most MaxConcurrency at once (0 = no limit),
   * and returns the results in item order. The first failing iteration fails the Map and stops
   * the others.
   */
  private JsonNode iterations(
      RunningExecution run,
      State.Map map,
      JsonNode effective,
      JsonNode items,
      Instant entered,
      int retryCount)
      throws InterruptedException {
    int count = items.size();
    JsonNode[] results = new JsonNode[count];
    Semaphore permits =
        new Semaphore(map.maxConcurrency() == 0 ? Math.max(count, 1) : map.maxConcurrency());
    AtomicReference<StatesError> failure = new AtomicReference<>();
    CompletableFuture<Void> firstFailure = new CompletableFuture<>();
    List<CompletableFuture<Void>> all = new ArrayList<>();
    ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
    try {
      for (int i = 0; i < count && failure.get() == null; i++) {
        permits.acquire();
        if (failure.get() != null) {
          permits.release();
          break;
        }
        int index = i;
        all.add(
            CompletableFuture.runAsync(
                () -> {
                  try {
                    JsonNode itemContext =
                        run.context.contextObject(
                            map.name(), entered, retryCount, null, index, items.get(index));
                    JsonNode itemInput =
                        map.itemSelector() == null
                            ? items.get(index)
                            : DataFlow.template(map.itemSelector(), effective, itemContext);
                    ObjectNode iteration = Json.object();
                    iteration.put("name", map.name());
                    iteration.put("index", index);
                    run.history.record(
                        "MapIterationStarted", "mapIterationStartedEventDetails", iteration);
                    results[index] =
                        run(run, map.iterator(), map.iterator().startAt(), itemInput, false, null);
                    run.history.record(
                        "MapIterationSucceeded", "mapIterationSucceededEventDetails", iteration);
                  } catch (StatesError e) {
                    ObjectNode iteration = Json.object();
                    iteration.put("name", map.name());
                    iteration.put("index", index);
                    run.history.record(
                        "MapIterationFailed", "mapIterationFailedEventDetails", iteration);
                    if (failure.compareAndSet(null, e)) {
                      firstFailure.complete(null);
                    }
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  } finally {
                    permits.release();
                  }
                },
                pool));
      }
      CompletableFuture.anyOf(
              CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)), firstFailure)
          .get();
    } catch (ExecutionException e) {
      throw new IllegalStateException("iterations report failures through StatesError", e);
    } finally {
      pool.shutdownNow();
    }
    if (failure.get() != null) {
      throw failure.get();
    }
    ArrayNode out = Json.NODES.arrayNode();
    for (JsonNode result : results) {
      out.add(result);
    }
    return out;
  }

  /** Retry then Catch around a Task or Map, as the AWS error-handling rules describe. */
  private Step recover(
      RunningExecution run,
      String stateName,
      JsonNode raw,
      List<State.Retrier> retriers,
      List<State.Catcher> catchers,
      String next,
      boolean top,
      Resume resume,
      Attempt attempt)
      throws InterruptedException {
    int[] counts =
        resume != null && resume.retryCounts().length == retriers.size()
            ? resume.retryCounts().clone()
            : new int[retriers.size()];
    String pendingToken = resume == null ? null : resume.pendingToken();
    if (resume != null && resume.retryAt() != null) {
      // A retry wait the restart interrupted: finish it before the next attempt.
      sleepUntil(resume.retryAt());
    }
    while (true) {
      int retryCount = 0;
      for (int c : counts) {
        retryCount += c;
      }
      currentCounts.set(countsJson(counts));
      try {
        return new Step(next, attempt.run(retryCount, pendingToken));
      } catch (StatesError error) {
        pendingToken = null;
        int index = RetryPolicy.retrierFor(retriers, error);
        if (index >= 0 && counts[index] < retriers.get(index).maxAttempts()) {
          counts[index]++;
          Duration delay = retry.delay(retriers.get(index), counts[index]);
          Instant due = clock.now().plus(delay);
          if (top) {
            store.checkpoint(run.arn, stateName, Json.print(raw), countsJson(counts), due, null);
          }
          sleepUntil(due);
          continue;
        }
        State.Catcher catcher = RetryPolicy.catcherFor(catchers, error);
        if (catcher == null) {
          throw error;
        }
        ObjectNode errorOutput = Json.object();
        errorOutput.put("Error", error.error());
        errorOutput.put("Cause", error.cause());
        return new Step(
            catcher.next(), DataFlow.placeResult(raw, errorOutput, catcher.resultPath()));
      }
    }
  }

  static String countsJson(int[] counts) {
    ArrayNode array = Json.NODES.arrayNode();
    for (int c : counts) {
      array.add(c);
    }
    return Json.print(array);
  }

  private void sleepUntil(Instant due) throws InterruptedException {
    CompletableFuture<Void> woken = new CompletableFuture<>();
    Clock.Timer timer = clock.schedule(due, () -> woken.complete(null));
    try {
      woken.get();
    } catch (ExecutionException e) {
      throw new IllegalStateException(e);
    } finally {
      timer.cancel();
    }
  }
}
