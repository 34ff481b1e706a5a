package dev.protomolt.statemachines;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AslSubsetTest {

  @Test
  void referencePathsAreDotNotationWithOptionalIndexes() {
    assertThat(AslSubset.isReferencePath("$")).isTrue();
    assertThat(AslSubset.isReferencePath("$.a.b")).isTrue();
    assertThat(AslSubset.isReferencePath("$.a[0].b_c[12]")).isTrue();
    assertThat(AslSubset.isReferencePath("$['a']")).isFalse();
    assertThat(AslSubset.isReferencePath("$.a[*]")).isFalse();
    assertThat(AslSubset.isReferencePath("$..a")).isFalse();
    assertThat(AslSubset.isReferencePath("$.a-b")).isFalse();
    assertThat(AslSubset.isReferencePath("$$.Task.Token")).isFalse();
  }

  @Test
  void contextPathsAreTheListedOnesAndDottedPathsBelowInputAndItemValue() {
    assertThat(AslSubset.isContextPath("$$.Task.Token")).isTrue();
    assertThat(AslSubset.isContextPath("$$.Map.Item.Value")).isTrue();
    assertThat(AslSubset.isContextPath("$$.Map.Item.Value.stream.metadata")).isTrue();
    assertThat(AslSubset.isContextPath("$$.Execution.Input.node")).isTrue();
    assertThat(AslSubset.isContextPath("$$.Execution.StartTime")).isFalse();
    assertThat(AslSubset.isContextPath("$$.Task.Token.x")).isFalse();
    assertThat(AslSubset.isContextPath("$$.Map.Item.ValueX")).isFalse();
  }

  @Test
  void resultPathsHaveNoIndexesAndNoContext() {
    assertThat(AslSubset.isResultPath("$")).isTrue();
    assertThat(AslSubset.isResultPath("$.error")).isTrue();
    assertThat(AslSubset.isResultPath("$.a[0]")).isFalse();
    assertThat(AslSubset.isResultPath("$$.State.Name")).isFalse();
  }

  @Test
  void intrinsicsAreTheListedFunctionsWithLiteralPathOrNestedArguments() {
    assertThat(AslSubset.checkPayloadExpression("States.Format('{}:{}', $.a, 3)")).isEmpty();
    assertThat(AslSubset.checkPayloadExpression("States.Hash(States.JsonToString($.a), 'SHA-256')"))
        .isEmpty();
    assertThat(AslSubset.checkPayloadExpression("States.Array()")).isEmpty();
    assertThat(AslSubset.checkPayloadExpression("States.MathAdd($$.State.RetryCount, -1)"))
        .isEmpty();
    assertThat(AslSubset.checkPayloadExpression("States.Format('it\\'s {}', $.a)")).isEmpty();
    assertThat(AslSubset.checkPayloadExpression("States.UUID()"))
        .hasValueSatisfying(m -> assertThat(m).contains("'States.UUID' is not one of"));
    assertThat(AslSubset.checkPayloadExpression("States.Format('{}', $..a)"))
        .hasValueSatisfying(m -> assertThat(m).contains("argument '$..a' is not a supported path"));
    assertThat(AslSubset.checkPayloadExpression("States.Format('{}', $.a"))
        .hasValueSatisfying(m -> assertThat(m).contains("unexpected end of expression"));
    assertThat(AslSubset.checkPayloadExpression("States.Array(1) x"))
        .hasValueSatisfying(m -> assertThat(m).contains("unexpected text after the call"));
    assertThat(AslSubset.checkPayloadExpression("hello"))
        .hasValue("'hello' is neither a path nor an intrinsic function call");
  }
}
