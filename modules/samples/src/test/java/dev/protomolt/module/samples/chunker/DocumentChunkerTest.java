package dev.protomolt.module.samples.chunker;

import static dev.protomolt.module.samples.SampleWork.run;
import static dev.protomolt.module.samples.SampleWork.updated;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
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

class DocumentChunkerTest {

  private final DocumentChunker chunker = new DocumentChunker();

  static PipeDoc parsedHarbourNotes() throws IOException {
    try (InputStream in =
        DocumentChunkerTest.class.getResourceAsStream("/samples/harbour-notes.txt")) {
      String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return PipeDoc.newBuilder()
          .setDocId("harbour-notes")
          .setSearchMetadata(
              SearchMetadata.newBuilder().setTitle("Harbour maintenance notes").setBody(body))
          .build();
    }
  }

  static Struct config(int window, int overlap) {
    return Struct.newBuilder()
        .putFields("window_chars", Value.newBuilder().setNumberValue(window).build())
        .putFields("overlap_chars", Value.newBuilder().setNumberValue(overlap).build())
        .build();
  }

  @Test
  void chunksTheBodyIntoOneChunkSetWhoseOffsetsPointBackIntoIt() throws IOException {
    PipeDoc source = parsedHarbourNotes();
    PipeDoc chunked = updated(run(chunker, source, config(120, 30)));
    assertThat(chunked.getSearchMetadata().getSemanticResultsCount()).isEqualTo(1);
    SemanticProcessingResult set = chunked.getSearchMetadata().getSemanticResults(0);
    assertThat(set.getResultId()).isEqualTo(new ChunkerConfig(120, 30, "body").resultId());
    assertThat(set.getChunkConfigId()).isEqualTo("window-120-overlap-30");
    assertThat(set.getSourceFieldName()).isEqualTo("body");
    assertThat(set.getChunksCount()).isGreaterThan(2);
    String body = source.getSearchMetadata().getBody();
    for (SemanticChunk chunk : set.getChunksList()) {
      var info = chunk.getEmbeddingInfo();
      assertThat(info.getTextContent().length()).isLessThanOrEqualTo(120);
      assertThat(info.getTextContent())
          .isEqualTo(
              body.substring(info.getOriginalCharStartOffset(), info.getOriginalCharEndOffset()));
      assertThat(info.getVectorCount()).isZero();
      assertThat(chunk.getChunkId()).isEqualTo(set.getResultId() + "-" + chunk.getChunkNumber());
    }
    assertThat(set.getMetadataOrThrow("chunk_count").getNumberValue())
        .isEqualTo(set.getChunksCount());
  }

  @Test
  void resultIdDependsOnlyOnTheConfigSoAReRunReplacesItsOwnChunkSet() throws IOException {
    PipeDoc once = updated(run(chunker, parsedHarbourNotes(), config(120, 30)));
    PipeDoc twice = updated(run(chunker, once, config(120, 30)));
    assertThat(twice).isEqualTo(once);

    PipeDoc another = updated(run(chunker, twice, config(200, 0)));
    assertThat(another.getSearchMetadata().getSemanticResultsList())
        .extracting(SemanticProcessingResult::getResultId)
        .containsExactly(
            new ChunkerConfig(120, 30, "body").resultId(),
            new ChunkerConfig(200, 0, "body").resultId())
        .doesNotHaveDuplicates();
  }

  @Test
  void defaultsAreFiveHundredAndFifty() throws IOException {
    PipeDoc chunked = updated(run(chunker, parsedHarbourNotes()));
    assertThat(chunked.getSearchMetadata().getSemanticResults(0).getChunkConfigId())
        .isEqualTo("window-500-overlap-50");
  }

  @Test
  void anEmptyFieldMovesOnUnchangedAndSaysWhy() {
    ModuleOutcome outcome = run(chunker, PipeDoc.newBuilder().setDocId("empty").build());
    assertThat(outcome)
        .isEqualTo(
            new ModuleOutcome.NoOp(
                NoOpReason.NO_OP_REASON_NOT_APPLICABLE,
                "search_metadata.body is empty: nothing to chunk"));
  }

  @Test
  void badConfigIsRejectedNamingTheFieldAndTheRule() throws IOException {
    PipeDoc doc = parsedHarbourNotes();
    assertThat(run(chunker, doc, config(100, 100)))
        .isEqualTo(
            new ModuleOutcome.Reject(
                RejectReason.REJECT_REASON_INVALID_INPUT,
                "custom_config.overlap_chars (100) must be less than custom_config.window_chars"
                    + " (100)"));
    assertThat(run(chunker, doc, config(4, 0)))
        .isEqualTo(
            new ModuleOutcome.Reject(
                RejectReason.REJECT_REASON_INVALID_INPUT,
                "custom_config.window_chars must be between 16 and 100000, got 4"));
    Struct badField =
        Struct.newBuilder()
            .putFields("source_field", Value.newBuilder().setStringValue("keywords").build())
            .build();
    assertThat(run(chunker, doc, badField))
        .isEqualTo(
            new ModuleOutcome.Reject(
                RejectReason.REJECT_REASON_INVALID_INPUT,
                "custom_config.source_field must be \"body\" or \"title\", got \"keywords\""));
  }
}
