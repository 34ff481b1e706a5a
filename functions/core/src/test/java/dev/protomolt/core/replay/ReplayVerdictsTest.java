package dev.protomolt.core.replay;

import static dev.protomolt.proto.data.v1.PipeDocPart.PIPE_DOC_PART_BLOBS;
import static dev.protomolt.proto.data.v1.PipeDocPart.PIPE_DOC_PART_CHUNKS;
import static dev.protomolt.proto.data.v1.PipeDocPart.PIPE_DOC_PART_CORE;
import static dev.protomolt.proto.data.v1.PipeDocPart.PIPE_DOC_PART_PARSED;
import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.proto.data.v1.PipeDocPart;
import dev.protomolt.proto.repository.v1.PartManifestEntry;
import dev.protomolt.proto.repository.v1.PartState;
import dev.protomolt.proto.repository.v1.PipeDocManifest;
import dev.protomolt.proto.repository.v1.ReplayEligibility;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ReplayVerdictsTest {

  private static PartManifestEntry entry(
      PipeDocPart part, PartState state, String reason, String subKey) {
    return PartManifestEntry.newBuilder()
        .setPart(part)
        .setState(state)
        .setDeletedReason(reason)
        .setSubKey(subKey)
        .setSha256("ab")
        .setSizeBytes(10)
        .build();
  }

  private static PipeDocManifest manifest(PartManifestEntry blobs, PartManifestEntry... chunks) {
    PipeDocManifest.Builder m =
        PipeDocManifest.newBuilder()
            .addEntries(entry(PIPE_DOC_PART_CORE, PartState.PART_STATE_PRESENT, "", ""))
            .addEntries(blobs)
            .addEntries(entry(PIPE_DOC_PART_PARSED, PartState.PART_STATE_EMPTY, "", ""));
    for (PartManifestEntry c : chunks) {
      m.addEntries(c);
    }
    return m.build();
  }

  private static final PartManifestEntry BLOBS_PRESENT =
      entry(PIPE_DOC_PART_BLOBS, PartState.PART_STATE_PRESENT, "", "");
  private static final PartManifestEntry BLOBS_SETTLED =
      entry(PIPE_DOC_PART_BLOBS, PartState.PART_STATE_DELETED, "POST_PARSE_POLICY", "");
  private static final PartManifestEntry CHUNK_A =
      entry(PIPE_DOC_PART_CHUNKS, PartState.PART_STATE_PRESENT, "", "a");

  @Test
  void everyRequiredPartPresentOrEmptyIsReplayable() {
    var verdict = ReplayVerdicts.of(manifest(BLOBS_PRESENT, CHUNK_A), Set.of());
    assertThat(verdict.eligibility()).isEqualTo(ReplayEligibility.REPLAY_ELIGIBILITY_REPLAYABLE);
    assertThat(verdict.missingParts()).isEmpty();
  }

  @Test
  void aSettledSourceIsASourceReceiptOnlyWhenBlobsAreRequired() {
    PipeDocManifest settled = manifest(BLOBS_SETTLED, CHUNK_A);

    var needsSource = ReplayVerdicts.of(settled, Set.of(PIPE_DOC_PART_BLOBS, PIPE_DOC_PART_CORE));
    assertThat(needsSource.eligibility())
        .isEqualTo(ReplayEligibility.REPLAY_ELIGIBILITY_SOURCE_RECEIPT);
    assertThat(needsSource.missingParts()).containsExactly(PIPE_DOC_PART_BLOBS);
    assertThat(needsSource.reason()).contains("BLOBS is DELETED (POST_PARSE_POLICY)");

    var chunksOnly = ReplayVerdicts.of(settled, Set.of(PIPE_DOC_PART_CHUNKS, PIPE_DOC_PART_PARSED));
    assertThat(chunksOnly.eligibility()).isEqualTo(ReplayEligibility.REPLAY_ELIGIBILITY_REPLAYABLE);
  }

  @Test
  void aForgottenSourceOrADeletedChunkSetIsBodyMissing() {
    var rtbf =
        ReplayVerdicts.of(
            manifest(entry(PIPE_DOC_PART_BLOBS, PartState.PART_STATE_DELETED, "RTBF", "")),
            Set.of(PIPE_DOC_PART_BLOBS));
    assertThat(rtbf.eligibility()).isEqualTo(ReplayEligibility.REPLAY_ELIGIBILITY_BODY_MISSING);

    var chunkGone =
        ReplayVerdicts.of(
            manifest(
                BLOBS_SETTLED,
                CHUNK_A,
                entry(PIPE_DOC_PART_CHUNKS, PartState.PART_STATE_DELETED, "RTBF", "b")),
            Set.of());
    assertThat(chunkGone.eligibility())
        .as("a settled source does not excuse another missing part")
        .isEqualTo(ReplayEligibility.REPLAY_ELIGIBILITY_BODY_MISSING);
    assertThat(chunkGone.missingParts())
        .containsExactlyInAnyOrder(PIPE_DOC_PART_BLOBS, PIPE_DOC_PART_CHUNKS);
    assertThat(chunkGone.reason()).contains("CHUNKS chunk set 'b' is DELETED (RTBF)");
  }

  @Test
  void aRequiredPartWithNoEntryIsBodyMissing() {
    PipeDocManifest noChunks = manifest(BLOBS_PRESENT);
    var verdict = ReplayVerdicts.of(noChunks, Set.of(PIPE_DOC_PART_CHUNKS));
    assertThat(verdict.eligibility()).isEqualTo(ReplayEligibility.REPLAY_ELIGIBILITY_BODY_MISSING);
    assertThat(verdict.reason()).contains("CHUNKS has no manifest entry");
  }
}
