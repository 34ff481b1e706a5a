package dev.protomolt.module.samples.chunker;

import com.google.protobuf.Value;
import dev.protomolt.module.samples.chunker.TextWindows.Window;
import dev.protomolt.module.sdk.DocumentProcessor;
import dev.protomolt.module.sdk.DocumentRejectedException;
import dev.protomolt.module.sdk.ModuleOutcome;
import dev.protomolt.module.sdk.WorkContext;
import dev.protomolt.proto.data.v1.ChunkEmbedding;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.data.v1.SemanticChunk;
import dev.protomolt.proto.data.v1.SemanticProcessingResult;
import dev.protomolt.proto.module.v1.NoOpReason;
import java.util.List;

/**
 * The sample chunker: cuts one text field into overlapping character windows and stores them as
 * one {@code semantic_results} chunk set whose result_id comes from the configuration. Running it
 * again with the same configuration replaces that chunk set; other chunk sets are kept.
 */
public final class DocumentChunker implements DocumentProcessor {

  @Override
  public ModuleOutcome process(WorkContext work) throws DocumentRejectedException {
    ChunkerConfig config = ChunkerConfig.from(work.config());
    PipeDoc document = work.document();
    SearchMetadata search = document.getSearchMetadata();
    String text = config.sourceField().equals("title") ? search.getTitle() : search.getBody();
    if (text.isBlank()) {
      // Never drop: an empty field moves on unchanged, and says why.
      return ModuleOutcome.noOp(
          NoOpReason.NO_OP_REASON_NOT_APPLICABLE,
          "search_metadata." + config.sourceField() + " is empty: nothing to chunk");
    }
    List<Window> windows = TextWindows.cut(text, config.windowChars(), config.overlapChars());
    String resultId = config.resultId();
    SemanticProcessingResult.Builder chunkSet =
        SemanticProcessingResult.newBuilder()
            .setResultId(resultId)
            .setSourceFieldName(config.sourceField())
            .setChunkConfigId(config.chunkConfigId())
            .setResultSetName(config.sourceField() + "_" + config.chunkConfigId())
            .putMetadata("window_chars", number(config.windowChars()))
            .putMetadata("overlap_chars", number(config.overlapChars()))
            .putMetadata("chunk_count", number(windows.size()));
    for (int i = 0; i < windows.size(); i++) {
      Window window = windows.get(i);
      String chunkId = resultId + "-" + i;
      chunkSet.addChunks(
          SemanticChunk.newBuilder()
              .setChunkId(chunkId)
              .setChunkNumber(i)
              .setEmbeddingInfo(
                  ChunkEmbedding.newBuilder()
                      .setChunkId(chunkId)
                      .setTextContent(window.text())
                      .setOriginalCharStartOffset(window.start())
                      .setOriginalCharEndOffset(window.end())
                      .setChunkConfigId(config.chunkConfigId())));
    }
    SearchMetadata.Builder updated = search.toBuilder().clearSemanticResults();
    boolean replaced = false;
    for (SemanticProcessingResult existing : search.getSemanticResultsList()) {
      if (existing.getResultId().equals(resultId)) {
        if (!replaced) {
          updated.addSemanticResults(chunkSet);
          replaced = true;
        }
      } else {
        updated.addSemanticResults(existing);
      }
    }
    if (!replaced) {
      updated.addSemanticResults(chunkSet);
    }
    work.log(
        "cut search_metadata."
            + config.sourceField()
            + " into "
            + windows.size()
            + " chunks as "
            + resultId
            + " ("
            + config.chunkConfigId()
            + ")");
    return ModuleOutcome.updated(document.toBuilder().setSearchMetadata(updated).build());
  }

  private static Value number(double value) {
    return Value.newBuilder().setNumberValue(value).build();
  }
}
