package dev.protomolt.statemachines;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The replay state machine's definition stays inside the ASL subset and inside Step Functions'
 * history limit for any number of candidates: one execution runs at most a fixed number of pages
 * and then continues as a new execution.
 */
class ReplayMachineTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static Map<String, Object> parsed() throws Exception {
    return JSON.readValue(
        ReplayMachine.definition(
            "arn:aws:lambda:us-east-1:000000000000:function:protomolt-dev-replay-validate",
            "arn:aws:lambda:us-east-1:000000000000:function:protomolt-dev-replay-page"),
        new TypeReference<>() {});
  }

  @Test
  void theDefinitionIsInTheSubsetTheLocalRuntimeExecutes() throws Exception {
    assertThat(AslRules.check(parsed())).isEmpty();
  }

  @Test
  void oneExecutionStaysWithinTheHistoryLimitWithEveryRetryExhausted() throws Exception {
    long events = ReplayMachine.worstCaseEvents(parsed());
    // Page (2 + 4 x 4 attempts) and its Choice (2), a thousand times, dominate the estimate.
    assertThat(events).isEqualTo(2 + 18 + 1_000L * (18 + 2) + 18 + 2);
    assertThat(events).isLessThan(HistoryBudget.MAX_EVENTS);
  }

  @Test
  void theFirstStateIsValidationSoARefusalFailsTheExecutionThere() throws Exception {
    Map<String, Object> definition = parsed();
    assertThat(definition.get("StartAt")).isEqualTo("Validate");
    @SuppressWarnings("unchecked") // the definition's States object
    Map<String, Object> validate =
        (Map<String, Object>) ((Map<String, Object>) definition.get("States")).get("Validate");
    // No Catch: a refusal is not turned into a success or routed anywhere.
    assertThat(validate).doesNotContainKey("Catch");
  }
}
