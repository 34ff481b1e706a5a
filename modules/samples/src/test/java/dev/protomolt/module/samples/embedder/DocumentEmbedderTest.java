package dev.protomolt.module.samples.embedder;

import static dev.protomolt.module.samples.SampleWork.run;
import static dev.protomolt.module.samples.SampleWork.updated;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import dev.protomolt.module.samples.chunker.DocumentChunker;
import dev.protomolt.module.sdk.ModuleOutcome;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.data.v1.SemanticChunk;
import dev.protomolt.proto.data.v1.SemanticProcessingResult;
import dev.protomolt.proto.module.v1.NoOpReason;
import dev.protomolt.proto.module.v1.RejectReason;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class DocumentEmbedderTest {

  private final DocumentEmbedder embedder = new DocumentEmbedder();

  private static PipeDoc chunkedTideTables() throws IOException {
    try (InputStream in =
        DocumentEmbedderTest.class.getResourceAsStream("/samples/tide-tables.md")) {
      PipeDoc doc =
          PipeDoc.newBuilder()
              .setDocId("tide-tables")
              .setSearchMetadata(
                  SearchMetadata.newBuilder()
                      .setBody(new String(in.readAllBytes(), StandardCharsets.UTF_8)))
              .build();
      Struct small =
          Struct.newBuilder()
              .putFields("window_chars", Value.newBuilder().setNumberValue(100).build())
              .putFields("overlap_chars", Value.newBuilder().setNumberValue(20).build())
              .build();
      return updated(run(new DocumentChunker(), doc, small));
    }
  }

  private static double cosine(float[] a, float[] b) {
    double dot = 0;
    for (int i = 0; i < a.length; i++) {
      dot += a[i] * b[i];
    }
    return dot;
  }

  @Test
  void vectorsAreUnitLengthDeterministicAndCloserForSimilarText() {
    HashedNgramEmbedder hashed = new HashedNgramEmbedder(256);
    float[] tide = hashed.embed("tide tables for the harbour");
    assertThat(hashed.embed("tide tables for the harbour")).containsExactly(tide);
    assertThat(cosine(tide, tide)).isCloseTo(1.0, within(1e-5));
    double similar = cosine(tide, hashed.embed("Tide  TABLES of a harbour"));
    double different = cosine(tide, hashed.embed("quarterly revenue forecast"));
    assertThat(similar).isGreaterThan(0.6).isGreaterThan(different + 0.3);
    assertThat(hashed.embed("  ")).containsOnly(0f);
    assertThat(hashed.configId()).isEqualTo("hashed-char-ngram-3-5-fnv1a-d256-v1");
  }

  @Test
  void addsAVectorChunkSetBesideTheChunksItEmbedded() throws IOException {
    PipeDoc chunked = chunkedTideTables();
    SemanticProcessingResult source = chunked.getSearchMetadata().getSemanticResults(0);
    PipeDoc embedded = updated(run(embedder, chunked));

    assertThat(embedded.getSearchMetadata().getSemanticResultsCount()).isEqualTo(2);
    assertThat(embedded.getSearchMetadata().getSemanticResults(0)).isEqualTo(source);
    SemanticProcessingResult vectors = embedded.getSearchMetadata().getSemanticResults(1);
    assertThat(vectors.getResultId()).isNotEqualTo(source.getResultId()).startsWith("vectors-");
    assertThat(vectors.getEmbeddingConfigId()).isEqualTo("hashed-char-ngram-3-5-fnv1a-d256-v1");
    assertThat(vectors.getChunkConfigId()).isEqualTo(source.getChunkConfigId());
    assertThat(vectors.getChunksCount()).isEqualTo(source.getChunksCount());
    HashedNgramEmbedder hashed = new HashedNgramEmbedder(256);
    for (SemanticChunk chunk : vectors.getChunksList()) {
      var info = chunk.getEmbeddingInfo();
      assertThat(info.getVectorCount()).isEqualTo(256);
      float[] expected = hashed.embed(info.getTextContent());
      for (int i = 0; i < expected.length; i++) {
        assertThat(info.getVector(i)).isEqualTo(expected[i]);
      }
    }
  }

  @Test
  void aReRunReplacesItsOwnOutputAndADocumentWithoutChunksMovesOnUnchanged() throws IOException {
    PipeDoc once = updated(run(embedder, chunkedTideTables()));
    Struct named =
        Struct.newBuilder()
            .putFields(
                "source_result_id",
                Value.newBuilder()
                    .setStringValue(once.getSearchMetadata().getSemanticResults(0).getResultId())
                    .build())
            .build();
    assertThat(updated(run(embedder, once, named))).isEqualTo(once);
    // Re-embedding is deterministic, so a redelivered unit produces the identical document.
    assertThat(updated(run(embedder, once))).isEqualTo(once);
    assertThat(run(embedder, PipeDoc.newBuilder().setDocId("plain").build()))
        .isEqualTo(
            new ModuleOutcome.NoOp(
                NoOpReason.NO_OP_REASON_NOTHING_TO_DO,
                "search_metadata.semantic_results has no chunk set without vectors to embed"));
  }

  @Test
  void dimensionsComeFromConfigAndBadValuesAreRejectedByName() throws IOException {
    PipeDoc chunked = chunkedTideTables();
    Struct small =
        Struct.newBuilder()
            .putFields("dimensions", Value.newBuilder().setNumberValue(32).build())
            .build();
    PipeDoc embedded = updated(run(embedder, chunked, small));
    assertThat(
            embedded
                .getSearchMetadata()
                .getSemanticResults(1)
                .getChunks(0)
                .getEmbeddingInfo()
                .getVectorCount())
        .isEqualTo(32);

    Struct tooBig =
        Struct.newBuilder()
            .putFields("dimensions", Value.newBuilder().setNumberValue(1e6).build())
            .build();
    assertThat(run(embedder, chunked, tooBig))
        .isEqualTo(
            new ModuleOutcome.Reject(
                RejectReason.REJECT_REASON_INVALID_INPUT,
                "custom_config.dimensions must be between 8 and 1024, got 1000000"));

    Struct missing =
        Struct.newBuilder()
            .putFields("source_result_id", Value.newBuilder().setStringValue("chunks-nope").build())
            .build();
    ModuleOutcome outcome = run(embedder, chunked, missing);
    assertThat(outcome).isInstanceOf(ModuleOutcome.Reject.class);
    assertThat(((ModuleOutcome.Reject) outcome).detail())
        .startsWith("custom_config.source_result_id \"chunks-nope\" names no chunk set")
        .contains(chunked.getSearchMetadata().getSemanticResults(0).getResultId());
  }
}
