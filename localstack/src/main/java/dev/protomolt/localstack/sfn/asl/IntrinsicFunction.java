package dev.protomolt.localstack.sfn.asl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A parsed intrinsic function call such as {@code States.Format('id-{}', $.id)}, limited to the
 * functions the graph compiler emits: Format, StringToJson, JsonToString, Array, MathAdd and Hash.
 */
public record IntrinsicFunction(String name, List<Argument> arguments) {

  public static final Set<String> SUPPORTED =
      Set.of(
          "States.Format",
          "States.StringToJson",
          "States.JsonToString",
          "States.Array",
          "States.MathAdd",
          "States.Hash");

  private static final Map<String, String> HASH_ALGORITHMS =
      Map.of(
          "MD5", "MD5", "SHA-1", "SHA-1", "SHA-256", "SHA-256", "SHA-384", "SHA-384", "SHA-512",
          "SHA-512");

  /** One argument: a literal, a reference path or a nested call. */
  public sealed interface Argument {}

  /** A literal; for strings, {@code raw} keeps the escapes so Format can tell {@code \{} from {@code {}}. */
  public record Literal(JsonNode value, String raw) implements Argument {}

  public record PathArgument(ReferencePath path) implements Argument {}

  public record Call(IntrinsicFunction function) implements Argument {}

  public IntrinsicFunction {
    arguments = List.copyOf(arguments);
  }

  /** True when a {@code .$} field value is an intrinsic call rather than a path. */
  public static boolean looksLikeCall(String text) {
    return text.startsWith("States.");
  }

  /**
   * Parses a call, rejecting unknown functions and malformed arguments.
   *
   * @throws IllegalArgumentException naming the construct
   */
  public static IntrinsicFunction parse(String text) {
    Parser parser = new Parser(text);
    IntrinsicFunction call = parser.call();
    parser.skipSpaces();
    if (parser.pos != text.length()) {
      throw new IllegalArgumentException("unexpected text after intrinsic call: " + text);
    }
    return call;
  }

  /** Evaluates the call against the state's data and the context object. */
  public JsonNode evaluate(JsonNode data, JsonNode context) {
    List<JsonNode> values = new ArrayList<>();
    for (Argument argument : arguments) {
      values.add(
          switch (argument) {
            case Literal literal -> literal.value();
            case PathArgument path -> path.path().require(data, context, name);
            case Call call -> call.function().evaluate(data, context);
          });
    }
    return switch (name) {
      case "States.Format" -> format(values);
      case "States.StringToJson" -> stringToJson(values);
      case "States.JsonToString" -> {
        expectCount(values, 1);
        yield Json.NODES.textNode(Json.print(values.getFirst()));
      }
      case "States.Array" -> {
        ArrayNode array = Json.NODES.arrayNode();
        values.forEach(array::add);
        yield array;
      }
      case "States.MathAdd" -> mathAdd(values);
      case "States.Hash" -> hash(values);
      default -> throw new IllegalStateException("parser admits only supported functions: " + name);
    };
  }

  private JsonNode format(List<JsonNode> values) {
    if (values.isEmpty()
        || !(arguments.getFirst() instanceof Literal template)
        || !template.value().isTextual()) {
      throw failure("States.Format expects a string literal template as its first argument");
    }
    String raw = template.raw();
    StringBuilder out = new StringBuilder();
    int next = 1;
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c == '\\' && i + 1 < raw.length()) {
        out.append(raw.charAt(++i));
      } else if (c == '{' && i + 1 < raw.length() && raw.charAt(i + 1) == '}') {
        if (next >= values.size()) {
          throw failure("States.Format template has more {} placeholders than arguments");
        }
        JsonNode value = values.get(next++);
        if (value.isContainerNode()) {
          throw failure(
              "States.Format arguments must be strings, numbers, booleans or null, got "
                  + Json.print(value));
        }
        out.append(value.isTextual() ? value.textValue() : Json.print(value));
        i++;
      } else {
        out.append(c);
      }
    }
    if (next != values.size()) {
      throw failure(
          "States.Format got "
              + (values.size() - 1)
              + " arguments for "
              + (next - 1)
              + " placeholders");
    }
    return Json.NODES.textNode(out.toString());
  }

  private JsonNode stringToJson(List<JsonNode> values) {
    expectCount(values, 1);
    if (!values.getFirst().isTextual()) {
      throw failure("States.StringToJson expects a string, got " + Json.print(values.getFirst()));
    }
    try {
      return Json.parse(values.getFirst().textValue());
    } catch (IllegalArgumentException e) {
      throw failure("States.StringToJson could not parse its argument: " + e.getMessage());
    }
  }

  private JsonNode mathAdd(List<JsonNode> values) {
    expectCount(values, 2);
    for (JsonNode v : values) {
      if (!v.isNumber() || !v.canConvertToInt() || v.doubleValue() != Math.rint(v.doubleValue())) {
        throw failure("States.MathAdd expects two integers, got " + Json.print(v));
      }
    }
    return Json.NODES.numberNode(Math.addExact(values.get(0).intValue(), values.get(1).intValue()));
  }

  private JsonNode hash(List<JsonNode> values) {
    expectCount(values, 2);
    JsonNode data = values.get(0);
    JsonNode algorithm = values.get(1);
    if (!algorithm.isTextual() || !HASH_ALGORITHMS.containsKey(algorithm.textValue())) {
      throw failure(
          "States.Hash algorithm must be one of "
              + HASH_ALGORITHMS.keySet().stream().sorted().toList()
              + ", got "
              + Json.print(algorithm));
    }
    String text = data.isTextual() ? data.textValue() : Json.print(data);
    try {
      MessageDigest digest = MessageDigest.getInstance(HASH_ALGORITHMS.get(algorithm.textValue()));
      return Json.NODES.textNode(
          HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8))));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK ships " + algorithm.textValue(), e);
    }
  }

  private void expectCount(List<JsonNode> values, int count) {
    if (values.size() != count) {
      throw failure(name + " expects " + count + " argument(s), got " + values.size());
    }
  }

  private static StatesError failure(String cause) {
    return new StatesError(StatesError.INTRINSIC_FAILURE, cause);
  }

  /** Recursive-descent parser over the call text. */
  private static final class Parser {
    private final String text;
    private int pos;

    Parser(String text) {
      this.text = text;
    }

    IntrinsicFunction call() {
      skipSpaces();
      int open = text.indexOf('(', pos);
      if (open < 0) {
        throw new IllegalArgumentException("intrinsic call without '(': " + text);
      }
      String name = text.substring(pos, open).trim();
      if (!SUPPORTED.contains(name)) {
        throw new IllegalArgumentException(
            "unsupported intrinsic function "
                + name
                + " (supported: "
                + SUPPORTED.stream().sorted().toList()
                + ")");
      }
      pos = open + 1;
      List<Argument> args = new ArrayList<>();
      skipSpaces();
      if (peek() == ')') {
        pos++;
        return new IntrinsicFunction(name, args);
      }
      while (true) {
        args.add(argument());
        skipSpaces();
        char c = peek();
        pos++;
        if (c == ')') {
          return new IntrinsicFunction(name, args);
        }
        if (c != ',') {
          throw new IllegalArgumentException("expected ',' or ')' in " + text);
        }
      }
    }

    Argument argument() {
      skipSpaces();
      char c = peek();
      if (c == '\'') {
        return stringLiteral();
      }
      if (c == '$') {
        int end = pos;
        while (end < text.length()
            && text.charAt(end) != ','
            && text.charAt(end) != ')'
            && !Character.isWhitespace(text.charAt(end))) {
          end++;
        }
        ReferencePath path = ReferencePath.parse(text.substring(pos, end));
        pos = end;
        return new PathArgument(path);
      }
      if (text.startsWith("States.", pos)) {
        return new Call(call());
      }
      int end = pos;
      while (end < text.length() && text.charAt(end) != ',' && text.charAt(end) != ')') {
        end++;
      }
      String token = text.substring(pos, end).trim();
      pos = end;
      if (token.equals("true")
          || token.equals("false")
          || token.equals("null")
          || token.matches("-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?")) {
        return new Literal(Json.parse(token), token);
      }
      throw new IllegalArgumentException(
          "unsupported intrinsic argument '" + token + "' in " + text);
    }

    Literal stringLiteral() {
      int start = ++pos;
      StringBuilder decoded = new StringBuilder();
      while (pos < text.length()) {
        char c = text.charAt(pos);
        if (c == '\\' && pos + 1 < text.length()) {
          decoded.append(text.charAt(pos + 1));
          pos += 2;
        } else if (c == '\'') {
          String raw = text.substring(start, pos);
          pos++;
          return new Literal(Json.NODES.textNode(decoded.toString()), raw);
        } else {
          decoded.append(c);
          pos++;
        }
      }
      throw new IllegalArgumentException("unterminated string literal in " + text);
    }

    char peek() {
      if (pos >= text.length()) {
        throw new IllegalArgumentException("unexpected end of intrinsic call " + text);
      }
      return text.charAt(pos);
    }

    void skipSpaces() {
      while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
        pos++;
      }
    }
  }
}
