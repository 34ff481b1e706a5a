package dev.protomolt.statemachines;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class GoldenDiffTest {

  @Test
  void aValueChangedInPlaceShowsOnlyTheChangedLinesWithTheirNumbers() {
    assertThat(GoldenDiff.describe("a\nb\nc\n", "a\nB\nc\n")).isEqualTo("@@ line 2 @@\n- b\n+ B\n");
  }

  @Test
  void insertedLinesShowTheChangedMiddle() {
    assertThat(GoldenDiff.describe("a\nc\n", "a\nb1\nb2\nc\n"))
        .isEqualTo("@@ first difference at line 2 @@\n+ b1\n+ b2\n");
  }

  @Test
  void aMissingFinalNewlineIsNamed() {
    assertThat(GoldenDiff.describe("a\n", "a"))
        .endsWith("(the texts differ only in their final newline)\n");
  }
}
