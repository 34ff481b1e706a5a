package dev.protomolt.statemachines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonWriterTest {

  @Test
  void writesInInsertionOrderWithTwoSpaceIndentAndATrailingNewline() {
    JsonObject value =
        JsonObject.of()
            .with("b", 1)
            .with("a", List.of(true, "x"))
            .with("e", Map.of())
            .with("l", new ArrayList<>())
            .with("n", null);
    assertThat(JsonWriter.write(value))
        .isEqualTo(
            """
            {
              "b": 1,
              "a": [
                true,
                "x"
              ],
              "e": {},
              "l": [],
              "n": null
            }
            """);
  }

  @Test
  void escapesWhatJsonRequiresAndKeepsOtherTextAsIs() {
    assertThat(JsonWriter.write("q\"b\\n\nt\tc\u0001 é \u2028"))
        .isEqualTo("\"q\\\"b\\\\n\\nt\\tc\\u0001 é \\u2028\"\n");
  }

  @Test
  void writesNumbersTheSameWayOnEveryJvm() {
    assertThat(JsonWriter.write(List.of(2.0, 1.5, 7L, -3)))
        .isEqualTo("[\n  2.0,\n  1.5,\n  7,\n  -3\n]\n");
    assertThatThrownBy(() -> JsonWriter.write(Double.NaN))
        .hasMessage("JSON has no representation for NaN");
    assertThatThrownBy(() -> JsonWriter.write(new Object()))
        .hasMessageStartingWith("the ASL writer has no JSON form for java.lang.Object");
  }

  @Test
  void refusesAKeyWrittenTwice() {
    assertThatThrownBy(() -> JsonObject.of().with("k", 1).with("k", 2))
        .hasMessage("JSON key written twice: k");
  }
}
