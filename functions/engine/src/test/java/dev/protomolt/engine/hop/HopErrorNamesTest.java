package dev.protomolt.engine.hop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.statemachines.ErrorNames;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The compiled state machines match on {@link ErrorNames}' strings and a Java Lambda reports the
 * thrown class's name, so each constant must be exactly the name of its exception class: a renamed
 * or moved class would otherwise silently stop being retried or caught.
 */
class HopErrorNamesTest {

  @Test
  void everyEngineErrorNameIsTheNameOfItsExceptionClass() {
    assertThat(ErrorNames.ENGINE_TRANSIENT).isEqualTo(TransientHopFailure.class.getName());
    assertThat(ErrorNames.BAD_PAYLOAD).isEqualTo(BadPayloadFailure.class.getName());
    assertThat(ErrorNames.ROUTING_FAILED).isEqualTo(RoutingFailure.class.getName());
    assertThat(ErrorNames.MAPPING_FAILED).isEqualTo(MappingFailure.class.getName());
    assertThat(ErrorNames.FILTER_FAILED).isEqualTo(FilterFailure.class.getName());
    assertThat(ErrorNames.ORPHANED_PIN).isEqualTo(OrphanedPinFailure.class.getName());
    assertThat(ErrorNames.RTBF_TOO_LARGE).isEqualTo(RtbfTooLargeFailure.class.getName());
  }

  @Test
  void everyHopFailureClassHasAnErrorName() {
    List<String> permitted =
        Arrays.stream(HopFailure.class.getPermittedSubclasses()).map(Class::getName).toList();
    assertThat(permitted)
        .containsExactlyInAnyOrder(
            ErrorNames.ENGINE_TRANSIENT,
            ErrorNames.BAD_PAYLOAD,
            ErrorNames.ROUTING_FAILED,
            ErrorNames.MAPPING_FAILED,
            ErrorNames.FILTER_FAILED,
            ErrorNames.ORPHANED_PIN,
            ErrorNames.RTBF_TOO_LARGE);
  }

  @Test
  void theErrorTypeAFailureReportsIsItsClassName() {
    HopFailure failure = new TransientHopFailure("store unavailable");
    assertThat(failure.errorType()).isEqualTo(ErrorNames.ENGINE_TRANSIENT);
    assertThat(ErrorNames.LAMBDA_TRANSIENT).contains(failure.errorType());
  }
}
