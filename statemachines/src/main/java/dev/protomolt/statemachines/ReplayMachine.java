package dev.protomolt.statemachines;

import java.util.List;
import java.util.Map;

/**
 * The definition of {@code protomolt-<env>-replay}, the state machine an operator starts to replay
 * stored documents (decision 1700). It is a loop over keyset pages, within the ASL subset the local
 * runtime executes:
 *
 * <pre>
 * Validate (Lambda) -> Page (Lambda) -> Next (Choice) -+-> Page ...
 *                                                       +-> Continue (startExecution of itself) -> Continued
 *                                                       +-> Done
 * </pre>
 *
 * Validate refuses a bad input by failing (it is the first state, so the execution fails naming the
 * field) or passes a continuation on. Each Page reads one page after the cursor the state carries,
 * starts its executions at the input's rate and writes its audit row; after {@link
 * #PAGES_PER_EXECUTION} pages the run continues as a new execution of this machine so no history
 * comes near the 25,000-event limit, whatever the number of candidates ({@link #worstCaseEvents}).
 */
public final class ReplayMachine {

  /** Pages one execution runs before it continues as a new one. */
  public static final int PAGES_PER_EXECUTION = 1_000;

  static final String VALIDATE = "Validate";
  static final String PAGE = "Page";
  static final String NEXT = "Next";
  static final String CONTINUE = "Continue";
  static final String CONTINUED = "Continued";
  static final String DONE = "Done";

  private ReplayMachine() {}

  /**
   * The definition, ready to create.
   *
   * @param validateFunctionArn the {@code replay-validate} function (or its alias)
   * @param pageFunctionArn the {@code replay-page} function (or its alias)
   */
  public static String definition(String validateFunctionArn, String pageFunctionArn) {
    return JsonWriter.write(tree(validateFunctionArn, pageFunctionArn));
  }

  static JsonObject tree(String validateFunctionArn, String pageFunctionArn) {
    JsonObject states =
        JsonObject.of()
            .with(
                VALIDATE,
                lambda(
                        "Refuses a bad input naming the field (failing the execution here), or"
                            + " passes a continuation on",
                        validateFunctionArn,
                        JsonObject.of()
                            .with("input.$", "$")
                            .with("execution_arn.$", "$$.Execution.Id"))
                    .with("Next", PAGE))
            .with(
                PAGE,
                lambda(
                        "Reads one keyset page after the cursor, starts its executions, audits it",
                        pageFunctionArn,
                        JsonObject.of()
                            .with("state.$", "$")
                            .with("execution_arn.$", "$$.Execution.Id"))
                    .with("Next", NEXT))
            .with(
                NEXT,
                JsonObject.of()
                    .with("Type", "Choice")
                    .with(
                        "Choices",
                        List.of(
                            JsonObject.of()
                                .with("Variable", "$.progress.next")
                                .with("StringEquals", "done")
                                .with("Next", DONE),
                            JsonObject.of()
                                .with("Variable", "$.progress.next")
                                .with("StringEquals", "continue")
                                .with("Next", CONTINUE)))
                    .with("Default", PAGE))
            .with(
                CONTINUE,
                JsonObject.of()
                    .with("Type", "Task")
                    .with(
                        "Comment",
                        "The same run as a new execution of this machine: a fresh history budget")
                    .with("Resource", StateMachineCompiler.START_EXECUTION)
                    .with(
                        "Parameters",
                        JsonObject.of()
                            .with("StateMachineArn.$", "$$.StateMachine.Id")
                            .with("Name.$", "$.progress.continuation_name")
                            .with("Input", JsonObject.of().with("continuation.$", "$")))
                    .with("ResultPath", "$.continued")
                    .with(
                        "Retry",
                        List.of(
                            JsonObject.of()
                                .with("ErrorEquals", ErrorNames.START_EXECUTION_TRANSIENT)
                                .with("IntervalSeconds", 1)
                                .with("MaxAttempts", 3)
                                .with("BackoffRate", 2.0)))
                    .with("Next", CONTINUED))
            .with(CONTINUED, JsonObject.of().with("Type", "Succeed"))
            .with(DONE, JsonObject.of().with("Type", "Succeed"));
    return JsonObject.of()
        .with(
            "Comment",
            "ProtoMolt replay: pages stored documents onto a graph version (decision 1700)")
        .with("StartAt", VALIDATE)
        .with("States", states);
  }

  private static JsonObject lambda(String comment, String functionArn, JsonObject payload) {
    return JsonObject.of()
        .with("Type", "Task")
        .with("Comment", comment)
        .with("Resource", StateMachineCompiler.LAMBDA_INVOKE)
        .with(
            "Parameters",
            JsonObject.of().with("FunctionName", functionArn).with("Payload", payload))
        .with(
            "ResultSelector",
            JsonObject.of()
                .with("request.$", "$.Payload.request")
                .with("plan.$", "$.Payload.plan")
                .with("progress.$", "$.Payload.progress"))
        .with(
            "Retry",
            List.of(
                JsonObject.of()
                    .with("ErrorEquals", ErrorNames.LAMBDA_TRANSIENT)
                    .with("IntervalSeconds", 2)
                    .with("MaxAttempts", 3)
                    .with("BackoffRate", 2.0)));
  }

  /**
   * The most history events one execution of {@code definition} can write: start and end, the
   * validation, {@link #PAGES_PER_EXECUTION} pages each with its choice, and the continuation, every
   * retrier exhausted (the estimate {@link HistoryBudget} makes for graph machines).
   */
  @SuppressWarnings("unchecked") // the tree is the JsonObject this class built
  static long worstCaseEvents(Map<String, Object> definition) {
    Map<String, Object> states = (Map<String, Object>) definition.get("States");
    long validate = HistoryBudget.stateCost((Map<String, Object>) states.get(VALIDATE));
    long page = HistoryBudget.stateCost((Map<String, Object>) states.get(PAGE));
    long next = HistoryBudget.stateCost((Map<String, Object>) states.get(NEXT));
    long cont = HistoryBudget.stateCost((Map<String, Object>) states.get(CONTINUE));
    long end =
        Math.max(
            HistoryBudget.stateCost((Map<String, Object>) states.get(CONTINUED)),
            HistoryBudget.stateCost((Map<String, Object>) states.get(DONE)));
    // ExecutionStarted and its closing event; the Start-choice pair of graph machines is absent.
    return 2 + validate + PAGES_PER_EXECUTION * (page + next) + cont + end;
  }
}
