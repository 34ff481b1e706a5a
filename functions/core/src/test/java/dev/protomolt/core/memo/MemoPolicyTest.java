package dev.protomolt.core.memo;

import static dev.protomolt.core.graph.SampleGraphs.processor;
import static dev.protomolt.core.graph.SampleGraphs.sink;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.Memoization;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.OwnershipContext;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.StreamMetadata;
import org.junit.jupiter.api.Test;

class MemoPolicyTest {

  private static final PipeStream PERSISTED =
      PipeStream.newBuilder()
          .setDocumentRef(DocumentReference.newBuilder().setDocId("d").setKeep(true))
          .build();

  private static final PipeStream REPLAYED =
      PERSISTED.toBuilder()
          .setMetadata(StreamMetadata.newBuilder().putContextParams(MemoPolicy.REPLAY_PARAM, "r1"))
          .build();

  @Test
  void byDefaultProcessorsReuseDuringReplaysOnlyAndSinksNever() {
    GraphNode parser = processor("parse", "parser");
    assertThat(MemoPolicy.effective(parser)).isEqualTo(Memoization.MEMOIZATION_REPLAYS);
    assertThat(MemoPolicy.effective(sink("index", "plan"))).isEqualTo(Memoization.MEMOIZATION_OFF);
    GraphNode explicit = parser.toBuilder().setMemoization(Memoization.MEMOIZATION_REPLAYS).build();
    assertThat(MemoPolicy.effective(explicit)).isEqualTo(Memoization.MEMOIZATION_REPLAYS);
    assertThat(MemoPolicy.reuses(parser, REPLAYED)).isTrue();
    assertThat(MemoPolicy.reuses(parser, PERSISTED)).isFalse();
    assertThat(MemoPolicy.eligible(parser, PERSISTED)).as("it still records").isTrue();
    assertThat(MemoPolicy.eligible(sink("index", "plan"), REPLAYED)).isFalse();
    GraphNode always = parser.toBuilder().setMemoization(Memoization.MEMOIZATION_ALWAYS).build();
    assertThat(MemoPolicy.reuses(always, PERSISTED)).isTrue();
    GraphNode off = parser.toBuilder().setMemoization(Memoization.MEMOIZATION_OFF).build();
    assertThat(MemoPolicy.eligible(off, REPLAYED)).isFalse();
  }

  @Test
  void onlyAStoredPersistInputTakesPart() {
    GraphNode always =
        processor("parse", "parser").toBuilder()
            .setMemoization(Memoization.MEMOIZATION_ALWAYS)
            .build();
    PipeStream cached =
        PipeStream.newBuilder()
            .setDocumentRef(DocumentReference.newBuilder().setDocId("d").setKeep(false))
            .build();
    PipeStream forgettable =
        PipeStream.newBuilder()
            .setDocument(
                PipeDoc.newBuilder()
                    .setDocId("d")
                    .setOwnership(OwnershipContext.newBuilder().setRightToBeForgotten(true)))
            .build();
    assertThat(MemoPolicy.eligible(always, cached)).isFalse();
    assertThat(MemoPolicy.eligible(always, forgettable)).isFalse();
  }

  @Test
  void theKeyChangesWithEveryComponentAndNothingElse() {
    GraphNode node =
        processor("chunk", "chunker").toBuilder()
            .setCustomConfig(config("size", "512", "overlap", "64"))
            .build();
    MemoKey key = MemoKey.of("acme", "d", "g", node, "input-1");
    // The same configuration built in another order hashes alike.
    GraphNode reordered =
        node.toBuilder().setCustomConfig(config("overlap", "64", "size", "512")).build();
    assertThat(MemoKey.of("acme", "d", "g", reordered, "input-1").digest()).isEqualTo(key.digest());
    // The name is not handed to the module: not part of the key.
    assertThat(
            MemoKey.of("acme", "d", "g", node.toBuilder().setName("renamed").build(), "input-1")
                .digest())
        .isEqualTo(key.digest());
    assertThat(MemoKey.of("acme", "d", "g", node, "input-2").digest()).isNotEqualTo(key.digest());
    assertThat(
            MemoKey.of("acme", "d", "g", node.toBuilder().setModuleVersion("2").build(), "input-1")
                .digest())
        .isNotEqualTo(key.digest());
    assertThat(
            MemoKey.of("acme", "d", "g", node.toBuilder().setModuleId("other").build(), "input-1")
                .digest())
        .isNotEqualTo(key.digest());
    assertThat(
            MemoKey.of(
                    "acme",
                    "d",
                    "g",
                    node.toBuilder()
                        .setCustomConfig(config("size", "256", "overlap", "64"))
                        .build(),
                    "input-1")
                .digest())
        .isNotEqualTo(key.digest());
  }

  private static Struct config(String k1, String v1, String k2, String v2) {
    return Struct.newBuilder()
        .putFields(k1, Value.newBuilder().setStringValue(v1).build())
        .putFields(k2, Value.newBuilder().setStringValue(v2).build())
        .build();
  }
}
