package dev.protomolt.core.doclog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class WindowSpecTest {

  @Test
  void defaultIsTheContentIndexWindowsAndStepsBySizeLessOverlap() {
    assertThat(WindowSpec.DEFAULT).isEqualTo(new WindowSpec(1000, 150));
    assertThat(WindowSpec.DEFAULT.step()).isEqualTo(850);
    assertThat(new WindowSpec(1, 0).step()).isEqualTo(1);
  }

  @Test
  void sizeMustBePositive() {
    assertThatThrownBy(() -> new WindowSpec(0, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("size: must be greater than 0 (got 0)");
  }

  @Test
  void overlapMustNotBeNegative() {
    assertThatThrownBy(() -> new WindowSpec(10, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("overlap: must not be negative (got -1)");
  }

  @Test
  void overlapMustBeLessThanSize() {
    assertThatThrownBy(() -> new WindowSpec(10, 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("overlap: must be less than size 10 (got 10)");
  }
}
