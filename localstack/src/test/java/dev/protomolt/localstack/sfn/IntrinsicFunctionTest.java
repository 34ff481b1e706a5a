package dev.protomolt.localstack.sfn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.protomolt.localstack.sfn.asl.IntrinsicFunction;
import dev.protomolt.localstack.sfn.asl.Json;
import dev.protomolt.localstack.sfn.asl.StatesError;
import org.junit.jupiter.api.Test;

/** The intrinsic functions as the AWS guide "Intrinsic functions for JSONPath states" defines them. */
class IntrinsicFunctionTest {

  private static final JsonNode DATA =
      Json.parse(
          "{\"name\":\"doc\",\"n\":3,\"list\":[1,2],\"obj\":{\"a\":true},\"s\":\"{\\\"k\\\":1}\"}");
  private static final JsonNode CONTEXT = Json.parse("{\"Execution\":{\"Name\":\"e1\"}}");

  private static JsonNode eval(String call) {
    return IntrinsicFunction.parse(call).evaluate(DATA, CONTEXT);
  }

  /** AWS: {} is a placeholder; \\{ \\} \\' and \\\\ are literal characters. */
  @Test
  void formatPlaceholdersAndEscapes() {
    assertThat(eval("States.Format('{}:{}:{}', $.name, $.n, $$.Execution.Name)").asText())
        .isEqualTo("doc:3:e1");
    assertThat(eval("States.Format('\\{literal\\} it\\'s {}', $.name)").asText())
        .isEqualTo("{literal} it's doc");
  }

  @Test
  void formatArgumentCountMustMatch() {
    assertThatThrownBy(() -> eval("States.Format('{} {}', $.name)"))
        .isInstanceOfSatisfying(
            StatesError.class, e -> assertThat(e.error()).isEqualTo("States.IntrinsicFailure"));
  }

  @Test
  void jsonRoundTripsAndArrays() {
    assertThat(eval("States.JsonToString($.obj)").asText()).isEqualTo("{\"a\":true}");
    assertThat(eval("States.StringToJson($.s)")).isEqualTo(Json.parse("{\"k\":1}"));
    assertThat(eval("States.Array($.name, $.list, 'x', 1.5, true, null)"))
        .isEqualTo(Json.parse("[\"doc\",[1,2],\"x\",1.5,true,null]"));
    assertThat(eval("States.Array()")).isEqualTo(Json.parse("[]"));
  }

  /** AWS: MathAdd adds two integers; anything else is States.IntrinsicFailure. */
  @Test
  void mathAddTakesIntegers() {
    assertThat(eval("States.MathAdd($.n, -5)").asInt()).isEqualTo(-2);
    assertThatThrownBy(() -> eval("States.MathAdd($.name, 1)"))
        .hasMessageContaining("States.IntrinsicFailure");
  }

  /** AWS: Hash supports MD5, SHA-1, SHA-256, SHA-384 and SHA-512 and returns lowercase hex. */
  @Test
  void hashAlgorithms() {
    assertThat(eval("States.Hash('abc', 'MD5')").asText())
        .isEqualTo("900150983cd24fb0d6963f7d28e17f72");
    assertThat(eval("States.Hash('abc', 'SHA-1')").asText())
        .isEqualTo("a9993e364706816aba3e25717850c26c9cd0d89d");
    assertThatThrownBy(() -> eval("States.Hash('abc', 'CRC32')"))
        .hasMessageContaining("algorithm must be one of");
  }

  @Test
  void nestedCallsAndBadSyntaxAreNamed() {
    assertThat(eval("States.StringToJson(States.JsonToString($.list))"))
        .isEqualTo(Json.parse("[1,2]"));
    assertThatThrownBy(() -> IntrinsicFunction.parse("States.Format('x'"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> IntrinsicFunction.parse("States.ArrayLength($.list)"))
        .hasMessageContaining("unsupported intrinsic function States.ArrayLength");
  }
}
