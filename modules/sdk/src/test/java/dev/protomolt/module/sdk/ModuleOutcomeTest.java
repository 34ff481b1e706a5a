package dev.protomolt.module.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import dev.protomolt.proto.module.v1.NoOpReason;
import dev.protomolt.proto.module.v1.RejectReason;
import dev.protomolt.proto.module.v1.RetryReason;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The pure pieces around the loop: outcome rules, config reads, back-off, worker config. */
class ModuleOutcomeTest {

  @Test
  void outcomesRefuseUnspecifiedReasons() {
    assertThatThrownBy(() -> new ModuleOutcome.Reject(RejectReason.REJECT_REASON_UNSPECIFIED, "x"))
        .hasMessageContaining("Reject.reason must be a specific reason");
    assertThatThrownBy(() -> new ModuleOutcome.NoOp(NoOpReason.NO_OP_REASON_UNSPECIFIED, "x"))
        .hasMessageContaining("NoOp.reason must be a specific reason");
    assertThatThrownBy(
            () -> new ModuleOutcome.RetryableFailure(RetryReason.RETRY_REASON_TIMEOUT, "x", -1))
        .hasMessageContaining("retryAfterMs must be >= 0");
  }

  @Test
  void failureDescriptionNamesEachCause() {
    ModuleOutcome outcome =
        ProcessorFailure.outcomeOf(new IllegalStateException("outer", new IOException("inner")));
    assertThat(outcome)
        .isEqualTo(
            new ModuleOutcome.RetryableFailure(
                RetryReason.RETRY_REASON_UNSPECIFIED,
                "processor threw java.lang.IllegalStateException: outer; caused by"
                    + " java.io.IOException: inner",
                0));
  }

  @Test
  void customConfigReadsWholeNumbersAndNamesTheFieldWhenWrong() throws Exception {
    CustomConfig config =
        new CustomConfig(
            Struct.newBuilder()
                .putFields("window_chars", Value.newBuilder().setNumberValue(400).build())
                .putFields("overlap_chars", Value.newBuilder().setStringValue("40").build())
                .putFields("bad", Value.newBuilder().setStringValue("lots").build())
                .putFields("fraction", Value.newBuilder().setNumberValue(2.5).build())
                .build());
    assertThat(config.intValue("window_chars", 1, 1, 10_000)).isEqualTo(400);
    assertThat(config.intValue("overlap_chars", 1, 0, 10_000)).isEqualTo(40);
    assertThat(config.intValue("absent", 7, 0, 10)).isEqualTo(7);
    assertThatThrownBy(() -> config.intValue("bad", 1, 0, 10))
        .isInstanceOf(DocumentRejectedException.class)
        .hasMessage("custom_config.bad must be a whole number, got \"lots\"");
    assertThatThrownBy(() -> config.intValue("fraction", 1, 0, 10))
        .hasMessage("custom_config.fraction must be a whole number, got 2.5");
    assertThatThrownBy(() -> config.intValue("window_chars", 1, 1, 100))
        .hasMessage("custom_config.window_chars must be between 1 and 100, got 400");
    assertThatThrownBy(() -> config.stringValue("window_chars"))
        .hasMessage("custom_config.window_chars must be a string, got a number");
  }

  @Test
  void reconnectBackoffDoublesFromItsStartAndStopsAtItsCap() {
    ReconnectBackoff backoff = new ReconnectBackoff(Duration.ofMillis(500), Duration.ofSeconds(30));
    assertThat(backoff.delayAfter(0)).isEqualTo(Duration.ofMillis(500));
    assertThat(backoff.delayAfter(3)).isEqualTo(Duration.ofSeconds(4));
    assertThat(backoff.delayAfter(6)).isEqualTo(Duration.ofSeconds(30));
    assertThat(backoff.delayAfter(1_000)).isEqualTo(Duration.ofSeconds(30));
    assertThatThrownBy(() -> new ReconnectBackoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
        .hasMessageContaining("reconnect max delay must be >= initial delay");
  }

  @Test
  void workerConfigNamesTheBrokenField() {
    assertThatThrownBy(() -> WorkerConfig.of("parser", 0))
        .hasMessage("maxConcurrency must be >= 1, got 0");
    assertThatThrownBy(() -> WorkerConfig.of("no spaces", 1))
        .hasMessageContaining("moduleId must be non-blank letters");
  }
}
