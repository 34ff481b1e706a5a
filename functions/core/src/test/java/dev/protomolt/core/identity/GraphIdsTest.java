package dev.protomolt.core.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class GraphIdsTest {
  @Test
  void intakeGraphIdIsPrefixedAccountId() {
    assertThat(GraphIds.intakeGraphId("acct-1")).isEqualTo("intake:acct-1");
    assertThat(GraphIds.isIntake("intake:acct-1")).isTrue();
    assertThat(GraphIds.accountOfIntake("intake:acct-1")).isEqualTo("acct-1");
    assertThat(GraphIds.rowKindOf("intake:acct-1")).isEqualTo(RowKind.INTAKE);
    assertThat(GraphIds.rowKindOf("graph-a")).isEqualTo(RowKind.PIPELINE);
    assertThat(GraphIds.isIntake("graph-a")).isFalse();
    assertThat(GraphIds.isIntake(null)).isFalse();
  }

  @Test
  void intakeGraphIdRefusesBadAccountIds() {
    assertThatThrownBy(() -> GraphIds.intakeGraphId(" "))
        .isInstanceOfSatisfying(
            InvalidIdentityException.class, e -> assertThat(e.field()).isEqualTo("account_id"))
        .hasMessageContaining("non-blank");
    assertThatThrownBy(() -> GraphIds.intakeGraphId(null))
        .isInstanceOf(InvalidIdentityException.class);
    assertThatThrownBy(() -> GraphIds.intakeGraphId("a:b"))
        .hasMessageContaining("must not contain ':'");
  }

  @Test
  void malformedIntakeGraphIdsAreRefused() {
    assertThatThrownBy(() -> GraphIds.rowKindOf("intake:"))
        .isInstanceOfSatisfying(
            InvalidIdentityException.class, e -> assertThat(e.field()).isEqualTo("graph_id"));
    assertThatThrownBy(() -> GraphIds.accountOfIntake("graph-a"))
        .hasMessageContaining("must start with \"intake:\"");
    assertThatThrownBy(() -> GraphIds.rowKindOf(""))
        .hasMessageContaining("graph_id must not be blank");
  }

  @Test
  void pipelineGraphsMayNotUseTheIntakeNamespace() {
    assertThat(GraphIds.requirePipelineGraphId("graph-a")).isEqualTo("graph-a");
    assertThatThrownBy(() -> GraphIds.requirePipelineGraphId("intake:acct-1"))
        .isInstanceOfSatisfying(
            InvalidIdentityException.class, e -> assertThat(e.field()).isEqualTo("graph_id"))
        .hasMessageContaining("reserved prefix");
  }
}
