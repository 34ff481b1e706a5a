package dev.protomolt.localstack.sfn.asl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.statemachines.AslRules;
import dev.protomolt.statemachines.AslSubset;
import dev.protomolt.statemachines.CompileProblem;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The compiler's ASL subset and what the local runtime accepts are one definition: every state type
 * and field the compiler may emit parses here, and a type outside the subset is refused by both,
 * by the same name.
 */
class AslSubsetAgreementTest {

  @Test
  void everyStateTypeAndFieldTheCompilerMayEmitIsAcceptedByTheLocalParser() {
    for (String type : AslSubset.STATE_TYPES) {
      assertThat(AslParser.acceptedFields(type))
          .as("fields of %s states", type)
          .containsAll(AslSubset.stateFields(type));
    }
  }

  @Test
  void aMapStateAsTheCompilerEmitsItRunsLocally() {
    String definition =
        """
        {"StartAt":"fan.Map","States":{
          "fan.Map":{"Type":"Map","ItemsPath":"$.targets","MaxConcurrency":4,
            "ItemSelector":{"target.$":"$$.Map.Item.Value"},
            "ItemProcessor":{"StartAt":"one","States":{"one":{"Type":"Pass","End":true}}},
            "ResultPath":"$.fanned","Next":"done"},
          "done":{"Type":"Succeed"}}}\
        """;
    Definition parsed = AslParser.parse(definition);
    assertThat(parsed.states()).containsKeys("fan.Map", "done");
  }

  @Test
  void aStateTypeOutsideTheSubsetIsRefusedByTheCompilersRulesAndTheLocalParserAlike() {
    assertThat(AslSubset.STATE_TYPES).doesNotContain("Parallel");
    Map<String, Object> parallel =
        Map.of(
            "StartAt",
            "both",
            "States",
            Map.of("both", Map.of("Type", "Parallel", "Branches", List.of(), "End", true)));
    List<CompileProblem> compiler = AslRules.check(parallel);
    assertThat(compiler).anySatisfy(p -> assertThat(p.message()).contains("state type 'Parallel'"));

    assertThatThrownBy(
            () ->
                AslParser.parse(
                    "{\"StartAt\":\"both\",\"States\":{\"both\":{\"Type\":\"Parallel\","
                        + "\"Branches\":[],\"End\":true}}}"))
        .isInstanceOfSatisfying(
            InvalidDefinitionException.class,
            e ->
                assertThat(e.problems())
                    .anySatisfy(
                        p ->
                            assertThat(p)
                                .contains("state type 'Parallel'")
                                .contains(
                                    "supported: "
                                        + String.join(
                                            ", ",
                                            AslSubset.STATE_TYPES.stream().sorted().toList()))));
  }
}
