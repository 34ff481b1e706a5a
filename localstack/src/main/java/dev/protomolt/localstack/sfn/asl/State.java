package dev.protomolt.localstack.sfn.asl;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * One state of a definition, in the supported subset. Path fields use the ASL convention: absent
 * means {@code $}; a JSON null is kept as a Java null (InputPath/OutputPath null → {@code {}},
 * ResultPath null → discard the result).
 */
public sealed interface State {

  String name();

  /** Next state, or null when the state ends the execution (or branches, for Choice). */
  String next();

  /** Task with one of the supported resources. */
  record Task(
      String name,
      TaskResource resource,
      String inputPath,
      JsonNode parameters,
      JsonNode resultSelector,
      String resultPath,
      String outputPath,
      List<Retrier> retriers,
      List<Catcher> catchers,
      Integer timeoutSeconds,
      Integer heartbeatSeconds,
      String next)
      implements State {}

  record Choice(
      String name,
      String inputPath,
      String outputPath,
      List<ChoiceRule.Branch> choices,
      String defaultNext)
      implements State {
    @Override
    public String next() {
      return null;
    }
  }

  /** Inline Map: every item runs {@code iterator} with at most {@code maxConcurrency} at once. */
  record Map(
      String name,
      String inputPath,
      String itemsPath,
      JsonNode itemSelector,
      int maxConcurrency,
      Definition iterator,
      JsonNode resultSelector,
      String resultPath,
      String outputPath,
      List<Retrier> retriers,
      List<Catcher> catchers,
      String next)
      implements State {}

  /** Pass; {@code result} is null when the definition has no Result field. */
  record Pass(
      String name,
      String inputPath,
      JsonNode parameters,
      JsonNode result,
      String resultPath,
      String outputPath,
      String next)
      implements State {}

  record Succeed(String name, String inputPath, String outputPath) implements State {
    @Override
    public String next() {
      return null;
    }
  }

  record Fail(String name, String error, String cause) implements State {
    @Override
    public String next() {
      return null;
    }
  }

  /** A Retry entry with AWS's defaults already applied. */
  record Retrier(
      List<String> errorEquals,
      int intervalSeconds,
      int maxAttempts,
      double backoffRate,
      Integer maxDelaySeconds,
      boolean fullJitter) {}

  /** A Catch entry; {@code resultPath} follows the same null convention. */
  record Catcher(List<String> errorEquals, String next, String resultPath) {}

  /** The resources a Task may name. */
  enum TaskResource {
    LAMBDA_INVOKE("arn:aws:states:::lambda:invoke"),
    LAMBDA_INVOKE_WAIT_FOR_TASK_TOKEN("arn:aws:states:::lambda:invoke.waitForTaskToken"),
    STATES_START_EXECUTION("arn:aws:states:::states:startExecution");

    private final String arn;

    TaskResource(String arn) {
      this.arn = arn;
    }

    public String arn() {
      return arn;
    }

    public static TaskResource of(String arn) {
      for (TaskResource r : values()) {
        if (r.arn.equals(arn)) {
          return r;
        }
      }
      return null;
    }
  }
}
