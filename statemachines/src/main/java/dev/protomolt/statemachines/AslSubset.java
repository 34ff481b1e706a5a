package dev.protomolt.statemachines;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The part of Amazon States Language (JSONPath query language) the compiler may emit. It is the
 * contract with the local Step Functions runtime, whose parser takes its state types and fields
 * from here and fails loudly on anything else, so the same definition behaves the same on a laptop
 * and in AWS. Widening it means changing the runtime first. statemachines/README.md lists the same
 * set in prose.
 */
public final class AslSubset {

  private AslSubset() {}

  public static final Set<String> STATE_TYPES =
      Set.of("Task", "Choice", "Map", "Pass", "Succeed", "Fail");

  public static final Set<String> TASK_RESOURCES =
      Set.of(
          "arn:aws:states:::lambda:invoke",
          "arn:aws:states:::lambda:invoke.waitForTaskToken",
          "arn:aws:states:::states:startExecution");

  public static final Set<String> TOP_LEVEL_FIELDS = Set.of("Comment", "StartAt", "States");

  public static final Set<String> PROCESSOR_FIELDS = Set.of("Comment", "StartAt", "States");

  /** Fields every state type may carry, by type. */
  public static Set<String> stateFields(String type) {
    return switch (type) {
      case "Task" ->
          Set.of(
              "Type",
              "Comment",
              "Resource",
              "Parameters",
              "ResultSelector",
              "ResultPath",
              "OutputPath",
              "InputPath",
              "Retry",
              "Catch",
              "TimeoutSeconds",
              "HeartbeatSeconds",
              "Next",
              "End");
      case "Choice" -> Set.of("Type", "Comment", "Choices", "Default", "InputPath", "OutputPath");
      case "Map" ->
          Set.of(
              "Type",
              "Comment",
              "ItemsPath",
              "ItemSelector",
              "ItemProcessor",
              "MaxConcurrency",
              "ResultSelector",
              "ResultPath",
              "OutputPath",
              "InputPath",
              "Retry",
              "Catch",
              "Next",
              "End");
      case "Pass" ->
          Set.of(
              "Type",
              "Comment",
              "Parameters",
              "ResultPath",
              "OutputPath",
              "InputPath",
              "Next",
              "End");
      case "Succeed" -> Set.of("Type", "Comment", "InputPath", "OutputPath");
      case "Fail" -> Set.of("Type", "Comment", "Error", "Cause");
      default -> Set.of();
    };
  }

  public static final Set<String> RETRIER_FIELDS =
      Set.of(
          "ErrorEquals",
          "IntervalSeconds",
          "MaxAttempts",
          "BackoffRate",
          "MaxDelaySeconds",
          "JitterStrategy");

  public static final Set<String> CATCHER_FIELDS = Set.of("ErrorEquals", "Next", "ResultPath");

  /** Comparison operators a Choice rule may use; the value of a {@code *Path} one is a path. */
  public static final Set<String> CHOICE_COMPARISONS =
      Set.of(
          "StringEquals",
          "StringEqualsPath",
          "NumericEquals",
          "NumericGreaterThan",
          "NumericLessThan",
          "BooleanEquals",
          "IsPresent",
          "IsNull");

  public static final Set<String> CHOICE_COMBINATORS = Set.of("And", "Or", "Not");

  public static final Set<String> INTRINSICS =
      Set.of(
          "States.Format",
          "States.StringToJson",
          "States.JsonToString",
          "States.Array",
          "States.MathAdd",
          "States.Hash");

  /** Context-object paths usable exactly as written. */
  public static final Set<String> CONTEXT_PATHS =
      Set.of(
          "$$.Execution.Id",
          "$$.Execution.Name",
          "$$.Execution.RedriveCount",
          "$$.StateMachine.Id",
          "$$.State.Name",
          "$$.State.RetryCount",
          "$$.Task.Token",
          "$$.Map.Item.Index");

  /** Context-object paths that may be followed by a dotted reference into their JSON value. */
  public static final List<String> CONTEXT_PATH_ROOTS =
      List.of("$$.Execution.Input", "$$.Map.Item.Value");

  private static final String SEGMENTS = "(\\.[A-Za-z_][A-Za-z0-9_]*(\\[[0-9]+\\])?)*";
  private static final Pattern REFERENCE_PATH = Pattern.compile("\\$" + SEGMENTS);
  private static final Pattern INDEX_FREE_PATH = Pattern.compile("\\$(\\.[A-Za-z_][A-Za-z0-9_]*)*");
  private static final Pattern SEGMENTS_ONLY = Pattern.compile(SEGMENTS);

  /** A reference path: {@code $}, {@code $.a.b}, {@code $.a[0].b}. */
  public static boolean isReferencePath(String path) {
    return REFERENCE_PATH.matcher(path).matches();
  }

  /** ResultPath may only name where a result goes: dot segments, no indexes, no context. */
  public static boolean isResultPath(String path) {
    return INDEX_FREE_PATH.matcher(path).matches();
  }

  public static boolean isContextPath(String path) {
    if (CONTEXT_PATHS.contains(path)) {
      return true;
    }
    for (String root : CONTEXT_PATH_ROOTS) {
      if (path.startsWith(root) && SEGMENTS_ONLY.matcher(path.substring(root.length())).matches()) {
        return true;
      }
    }
    return false;
  }

  /** A path a {@code .$} field, a Choice {@code Variable} or a {@code *Path} operator may read. */
  public static boolean isReadablePath(String path) {
    return isReferencePath(path) || isContextPath(path);
  }

  /**
   * Checks the value of a {@code .$} payload field: a readable path or an intrinsic call whose
   * arguments are string literals, numbers, readable paths or nested intrinsic calls.
   *
   * @return empty when valid, else why not
   */
  public static Optional<String> checkPayloadExpression(String expression) {
    if (expression.startsWith("$")) {
      return isReadablePath(expression)
          ? Optional.empty()
          : Optional.of(
              "'"
                  + expression
                  + "' is not a path the local runtime implements (dot notation with optional [n]"
                  + " indexes, or one of the listed context paths)");
    }
    if (expression.startsWith("States.")) {
      IntrinsicParser parser = new IntrinsicParser(expression);
      try {
        parser.call();
        parser.expectEnd();
        return Optional.empty();
      } catch (IllegalArgumentException e) {
        return Optional.of("intrinsic '" + expression + "': " + e.getMessage());
      }
    }
    return Optional.of("'" + expression + "' is neither a path nor an intrinsic function call");
  }

  /** A recursive-descent reader for one intrinsic call, strict enough to refuse what we do not run. */
  private static final class IntrinsicParser {
    private final String text;
    private int at;

    IntrinsicParser(String text) {
      this.text = text;
    }

    void call() {
      int start = at;
      while (at < text.length()
          && (Character.isLetterOrDigit(text.charAt(at)) || text.charAt(at) == '.')) {
        at++;
      }
      String name = text.substring(start, at);
      if (!INTRINSICS.contains(name)) {
        throw new IllegalArgumentException("'" + name + "' is not one of " + sorted(INTRINSICS));
      }
      expect('(');
      skipSpaces();
      if (peek() == ')') {
        at++;
        return;
      }
      while (true) {
        argument();
        skipSpaces();
        char c = next();
        if (c == ')') {
          return;
        }
        if (c != ',') {
          throw new IllegalArgumentException("expected ',' or ')' at offset " + (at - 1));
        }
      }
    }

    private void argument() {
      skipSpaces();
      char c = peek();
      if (c == '\'') {
        at++;
        while (true) {
          char s = next();
          if (s == '\\') {
            next();
          } else if (s == '\'') {
            return;
          }
        }
      }
      if (c == '$') {
        int start = at;
        while (at < text.length() && ",) ".indexOf(text.charAt(at)) < 0) {
          at++;
        }
        String path = text.substring(start, at);
        if (!isReadablePath(path)) {
          throw new IllegalArgumentException("argument '" + path + "' is not a supported path");
        }
        return;
      }
      if (c == '-' || Character.isDigit(c)) {
        int start = at;
        at++;
        while (at < text.length()
            && (Character.isDigit(text.charAt(at)) || text.charAt(at) == '.')) {
          at++;
        }
        try {
          Double.parseDouble(text.substring(start, at));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("bad number at offset " + start);
        }
        return;
      }
      if (text.startsWith("States.", at)) {
        call();
        return;
      }
      throw new IllegalArgumentException("unsupported argument at offset " + at);
    }

    void expectEnd() {
      if (at != text.length()) {
        throw new IllegalArgumentException("unexpected text after the call at offset " + at);
      }
    }

    private void expect(char c) {
      if (next() != c) {
        throw new IllegalArgumentException("expected '" + c + "' at offset " + (at - 1));
      }
    }

    private void skipSpaces() {
      while (at < text.length() && text.charAt(at) == ' ') {
        at++;
      }
    }

    private char peek() {
      if (at >= text.length()) {
        throw new IllegalArgumentException("unexpected end of expression");
      }
      return text.charAt(at);
    }

    private char next() {
      char c = peek();
      at++;
      return c;
    }
  }

  static List<String> sorted(Set<String> set) {
    return set.stream().sorted().toList();
  }
}
