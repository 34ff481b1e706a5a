package dev.protomolt.repository.retention;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.proto.repository.v1.DocumentStatus;
import dev.protomolt.proto.repository.v1.GetPipeDocManifestRequest;
import dev.protomolt.proto.repository.v1.SavePipeDocResponse;
import dev.protomolt.repository.fixtures.SampleDocs;
import dev.protomolt.repository.fixtures.Saves;
import dev.protomolt.repository.fixtures.StoreHarness;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class RetentionSweeperTest {

  private static final String ACME = "retention-acme";
  private static StoreHarness h;

  @BeforeAll
  static void start() {
    h = StoreHarness.start();
    h.store.onAccountEvent(StoreHarness.platformAccount(ACME));
  }

  @AfterAll
  static void stop() throws Exception {
    h.close();
  }

  private static RetentionSweeper sweeper(Optional<Duration> window, Duration after) {
    return new RetentionSweeper(
        h.postgres.dataSource(),
        h.store,
        window,
        RetentionSweeper.DEFAULT_MINIMUM,
        Clock.fixed(StoreHarness.NOW.plus(after), ZoneOffset.UTC));
  }

  private static DocumentStatus status(SavePipeDocResponse saved) {
    return h.store
        .getManifest(
            GetPipeDocManifestRequest.newBuilder().setDocumentRef(saved.getDocumentRef()).build())
        .getStatus();
  }

  @Test
  void pipelineCopiesOlderThanTheWindowAreTombstonedAndIntakeCopiesNever() {
    SavePipeDocResponse pipelineCopy =
        h.store.save(
            Saves.pipeline(ACME, "g", "parser", SampleDocs.document("doc-old", 1, 128, "a"))
                .setKeep(true)
                .build());
    SavePipeDocResponse intakeCopy =
        h.store.save(Saves.intake(ACME, "ds", SampleDocs.document("doc-old", 1, 128, "a")).build());
    h.purgeEvents.drain();

    assertThat(sweeper(Optional.empty(), Duration.ofDays(400)).sweep(100))
        .as("unset retention keeps everything forever")
        .isZero();
    assertThat(sweeper(Optional.of(Duration.ofDays(2)), Duration.ofDays(1)).sweep(100))
        .as("not old enough yet")
        .isZero();
    assertThat(status(pipelineCopy)).isEqualTo(DocumentStatus.DOCUMENT_STATUS_ACTIVE);

    assertThat(sweeper(Optional.of(Duration.ofDays(2)), Duration.ofDays(3)).sweep(100))
        .isEqualTo(1);

    assertThat(status(pipelineCopy)).isEqualTo(DocumentStatus.DOCUMENT_STATUS_PENDING_PURGE);
    assertThat(status(intakeCopy)).isEqualTo(DocumentStatus.DOCUMENT_STATUS_ACTIVE);
    assertThat(h.purgeEvents.drain())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.getNodeId()).isEqualTo(pipelineCopy.getNodeId());
              assertThat(e.getReason()).isEqualTo("RETENTION");
            });
  }

  @Test
  void aWindowBelowTheMinimumIsRefusedAtConstructionAndBareNumbersAreNotGuessed() {
    assertThatThrownBy(() -> sweeper(Optional.of(Duration.ofSeconds(60)), Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(RetentionSweeper.SETTING)
        .hasMessageContaining("below the minimum PT24H");
    assertThatThrownBy(() -> RetentionSweeper.parseSetting("60"))
        .hasMessageContaining(RetentionSweeper.SETTING)
        .hasMessageContaining("bare number");
    assertThatThrownBy(() -> RetentionSweeper.parseSetting("30 days"))
        .hasMessageContaining("ISO-8601");
    assertThat(RetentionSweeper.parseSetting(" ")).isEmpty();
    assertThat(RetentionSweeper.parseSetting("P30D")).contains(Duration.ofDays(30));
    assertThat(sweeper(Optional.empty(), Duration.ZERO).enabled()).isFalse();
    assertThatThrownBy(() -> sweeper(Optional.of(Duration.ofDays(2)), Duration.ZERO).sweep(0))
        .hasMessageContaining("limit");
  }
}
