package dev.protomolt.cdk.constructs;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.cdk.TestEnvironments;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

class StateTablesTest {

  private static Template template;

  @BeforeAll
  static void synth() {
    Stack stack = TestEnvironments.emptyStack();
    new StateTables(stack, "Tables", new StateTables.Props("protomolt-test", true));
    template = Template.fromStack(stack);
  }

  @Test
  void draftsAndWorkLedgerExpireThroughTheTtlAttribute() {
    template.resourceCountIs("AWS::DynamoDB::Table", 2);
    for (String name : List.of("protomolt-test-drafts", "protomolt-test-work-ledger")) {
      template.hasResourceProperties(
          "AWS::DynamoDB::Table",
          Match.objectLike(
              Map.of(
                  "TableName", name,
                  "KeySchema",
                      List.of(
                          Map.of("AttributeName", StateTables.PARTITION_KEY, "KeyType", "HASH")),
                  "TimeToLiveSpecification",
                      Map.of("AttributeName", StateTables.TTL_ATTRIBUTE, "Enabled", true),
                  "BillingMode", "PAY_PER_REQUEST",
                  "SSESpecification", Map.of("SSEEnabled", true),
                  "PointInTimeRecoverySpecification", Map.of("PointInTimeRecoveryEnabled", true))));
    }
  }

  @Test
  void retainedEnvironmentsKeepTheirTables() {
    template.allResources(
        "AWS::DynamoDB::Table",
        Match.objectLike(Map.of("DeletionPolicy", "Retain", "UpdateReplacePolicy", "Retain")));
  }

  @Test
  void propsRejectAnInvalidName() {
    assertThatThrownBy(() -> new StateTables.Props("bad name!", false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tables name prefix");
  }
}
