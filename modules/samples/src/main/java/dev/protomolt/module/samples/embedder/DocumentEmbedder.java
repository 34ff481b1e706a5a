package dev.protomolt.module.samples.embedder;

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
import dev.protomolt.proto.module.v1.RejectReason;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sample embedder: for each chunk set without vectors (or the one named by custom_config
 * {@code source_result_id}) it adds a new chunk set with the same chunks and a {@link
 * HashedNgramEmbedder} vector in every {@code ChunkEmbedding.vector}. The new set's result_id is
 * derived from the source set's id and the embedding config, so a re-run replaces it.
 * custom_config {@code dimensions} (default 256) sets the vector size.
 */
public final class DocumentEmbedder implements DocumentProcessor {

  public static final int DEFAULT_DIMENSIONS = 256;

  @Override
  public ModuleOutcome process(WorkContext work) throws DocumentRejectedException {
    int dimensions =
        work.config()
            .intValue("dimensions", DEFAULT_DIMENSIONS, 8, HashedNgramEmbedder.MAX_DIMENSIONS);
    HashedNgramEmbedder embedder = new HashedNgramEmbedder(dimensions);
    PipeDoc document = work.document();
    SearchMetadata search = document.getSearchMetadata();
    List<SemanticProcessingResult> sources =
        sourcesOf(search, work.config().stringValue("source_result_id").orElse(""));
    if (sources.isEmpty()) {
      return ModuleOutcome.noOp(
          NoOpReason.NO_OP_REASON_NOTHING_TO_DO,
          "search_metadata.semantic_results has no chunk set without vectors to embed");
    }
    Map<String, SemanticProcessingResult> produced = new LinkedHashMap<>();
    int vectors = 0;
    for (SemanticProcessingResult source : sources) {
      SemanticProcessingResult embedded = embed(source, embedder);
      produced.put(embedded.getResultId(), embedded);
      vectors += embedded.getChunksCount();
    }
    // Keep every existing set in place, replace an earlier run's output, append new outputs.
    SearchMetadata.Builder updated = search.toBuilder().clearSemanticResults();
    for (SemanticProcessingResult existing : search.getSemanticResultsList()) {
      SemanticProcessingResult replacement = produced.remove(existing.getResultId());
      updated.addSemanticResults(replacement != null ? replacement : existing);
    }
    produced.values().forEach(updated::addSemanticResults);
    work.log(
        "embedded "
            + vectors
            + " chunks from "
            + sources.size()
            + " chunk set(s) with "
            + embedder.configId());
    return ModuleOutcome.updated(document.toBuilder().setSearchMetadata(updated).build());
  }

  private static List<SemanticProcessingResult> sourcesOf(SearchMetadata search, String named)
      throws DocumentRejectedException {
    if (!named.isEmpty()) {
      for (SemanticProcessingResult set : search.getSemanticResultsList()) {
        if (set.getResultId().equals(named)) {
          return List.of(set);
        }
      }
      throw new DocumentRejectedException(
          RejectReason.REJECT_REASON_INVALID_INPUT,
          "custom_config.source_result_id \""
              + named
              + "\" names no chunk set in search_metadata.semantic_results (present: "
              + search.getSemanticResultsList().stream()
                  .map(SemanticProcessingResult::getResultId)
                  .toList()
              + ")");
    }
    List<SemanticProcessingResult> sources = new ArrayList<>();
    for (SemanticProcessingResult set : search.getSemanticResultsList()) {
      boolean unembedded =
          set.getEmbeddingConfigId().isEmpty()
              && set.getChunksCount() > 0
              && set.getChunksList().stream()
                  .allMatch(c -> c.getEmbeddingInfo().getVectorCount() == 0);
      if (unembedded) {
        sources.add(set);
      }
    }
    return sources;
  }

  private static SemanticProcessingResult embed(
      SemanticProcessingResult source, HashedNgramEmbedder embedder) {
    SemanticProcessingResult.Builder out =
        source.toBuilder()
            .clearChunks()
            .setResultId(resultId(source.getResultId(), embedder.configId()))
            .setEmbeddingConfigId(embedder.configId())
            .setResultSetName(source.getResultSetName() + "_" + embedder.configId());
    for (SemanticChunk chunk : source.getChunksList()) {
      float[] vector = embedder.embed(chunk.getEmbeddingInfo().getTextContent());
      ChunkEmbedding.Builder info = chunk.getEmbeddingInfo().toBuilder().clearVector();
      for (float value : vector) {
        info.addVector(value);
      }
      out.addChunks(chunk.toBuilder().setEmbeddingInfo(info));
    }
    return out.build();
  }

  static String resultId(String sourceResultId, String embeddingConfigId) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest((sourceResultId + "|" + embeddingConfigId).getBytes(StandardCharsets.UTF_8));
      return "vectors-" + HexFormat.of().formatHex(digest, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM ships SHA-256", e);
    }
  }
}
