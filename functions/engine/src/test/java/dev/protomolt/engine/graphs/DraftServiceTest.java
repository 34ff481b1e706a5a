package dev.protomolt.engine.graphs;

import static dev.protomolt.core.graph.SampleGraphs.linear;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.graph.FakeClock;
import dev.protomolt.core.graph.InMemoryDraftStore;
import dev.protomolt.core.graph.validation.GraphValidator;
import dev.protomolt.proto.config.v1.GraphDraft;
import dev.protomolt.proto.config.v1.ValidationMode;
import java.time.Duration;
import java.time.Instant;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class DraftServiceTest {

  private final FakeClock clock = new FakeClock(Instant.parse("2026-03-01T12:00:00Z"));
  private final DraftService drafts =
      new DraftService(
          new InMemoryDraftStore(),
          GraphValidator.standard(GraphAdminServiceTest.CEL, GraphAdminServiceTest.TENANCY),
          clock);

  @Test
  void saveKeysTheDraftAndSnapshotsDraftValidationWithAContentHash() {
    GraphDraft saved = drafts.save("c1", "g", "ann", linear("g", 0), OptionalLong.of(3));
    assertThat(saved.getDraftId()).isEqualTo("draft:c1:g:ann");
    assertThat(saved.getBaseVersion()).isEqualTo(3);
    assertThat(saved.getValidation().getResult().getMode())
        .isEqualTo(ValidationMode.VALIDATION_MODE_DRAFT);
    assertThat(saved.getValidation().getResult().getValid()).isTrue();
    assertThat(saved.getValidation().getContentHash())
        .hasSize(64)
        .isEqualTo(DraftService.contentHash(linear("g", 0)))
        .isNotEqualTo(DraftService.contentHash(linear("g", 1)));
    assertThat(saved.getExpiresAt().getSeconds())
        .isEqualTo(clock.instant().plus(Duration.ofDays(30)).getEpochSecond());
  }

  @Test
  void anInvalidDraftIsStillSavedWithItsViolations() {
    GraphDraft saved =
        drafts.save(
            "c1",
            "g",
            "ann",
            linear("g", 0).toBuilder().removeNodes(0).build(),
            OptionalLong.empty());
    assertThat(saved.hasBaseVersion()).as("forked from nothing").isFalse();
    assertThat(saved.getValidation().getResult().getValid()).isFalse();
    assertThat(saved.getValidation().getResult().getViolationsList())
        .extracting(v -> v.getRule())
        .contains("IntakePresence");
  }

  @Test
  void everyReadSlidesTheThirtyDayExpiry() {
    drafts.save("c1", "g", "ann", linear("g", 0), OptionalLong.empty());
    clock.advance(Duration.ofDays(29));
    assertThat(drafts.get("c1", "g", "ann")).isPresent();
    clock.advance(Duration.ofDays(29));
    assertThat(drafts.get("c1", "g", "ann")).as("the read at day 29 reset the clock").isPresent();
    clock.advance(Duration.ofDays(30));
    assertThat(drafts.get("c1", "g", "ann")).as("30 days untouched: expired").isEmpty();
  }

  @Test
  void deleteAndBadKeys() {
    drafts.save("c1", "g", "ann", linear("g", 0), OptionalLong.empty());
    assertThat(drafts.delete("c1", "g", "ann")).isTrue();
    assertThat(drafts.get("c1", "g", "ann")).isEmpty();
    assertThatThrownBy(() -> drafts.save("c1", "g", "", linear("g", 0), OptionalLong.empty()))
        .hasMessage("user_id must not be blank");
    assertThatThrownBy(() -> drafts.get("c:1", "g", "ann"))
        .hasMessage(
            "cluster_id 'c:1' must not contain ':' (it separates the parts of the draft key)");
  }
}
