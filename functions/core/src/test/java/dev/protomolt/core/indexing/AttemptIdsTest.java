package dev.protomolt.core.indexing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AttemptIdsTest {

  @Test
  void aUlidIsAcceptedAndUpperCased() {
    assertThat(AttemptIds.canonical("01hzx3k8q9m2n4p6r8s0t2v4w6"))
        .isEqualTo("01HZX3K8Q9M2N4P6R8S0T2V4W6");
  }

  @Test
  void upperCasedUlidsCompareInTimeOrder() {
    String earlier = AttemptIds.canonical("01HZX3K8Q9M2N4P6R8S0T2V4W6");
    String later = AttemptIds.canonical("01HZX3K8QAM2N4P6R8S0T2V4W6");
    assertThat(later.compareTo(earlier)).isPositive();
  }

  @Test
  void malformedIdsAreRefusedNamingTheFieldAndRule() {
    assertThatThrownBy(() -> AttemptIds.canonical(" "))
        .hasMessageContaining("attempt_id")
        .hasMessageContaining("blank");
    assertThatThrownBy(() -> AttemptIds.canonical("01HZX"))
        .hasMessageContaining("attempt_id")
        .hasMessageContaining("26-character");
    assertThatThrownBy(() -> AttemptIds.canonical("01HZX3K8Q9M2N4P6R8S0T2V4WU"))
        .hasMessageContaining("Crockford")
        .hasMessageContaining("position 25");
    assertThatThrownBy(() -> AttemptIds.canonical("81HZX3K8Q9M2N4P6R8S0T2V4W6"))
        .hasMessageContaining("overflows 128 bits");
  }
}
