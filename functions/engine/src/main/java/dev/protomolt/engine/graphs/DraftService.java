package dev.protomolt.engine.graphs;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Timestamp;
import dev.protomolt.core.graph.DraftStore;
import dev.protomolt.core.graph.GraphAdminException;
import dev.protomolt.core.graph.GraphAdminException.Reason;
import dev.protomolt.core.graph.validation.GraphValidator;
import dev.protomolt.proto.config.v1.DraftValidation;
import dev.protomolt.proto.config.v1.GraphDraft;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.ValidationMode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HexFormat;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Engine-side drafts: {@code draft:{cluster}:{graph}:{user}}, a 30-day sliding expiry that every
 * save and every read resets, a DRAFT-mode validation snapshot with the content hash it was taken
 * on, and the optional version the draft was forked from.
 */
public final class DraftService {

  public static final Duration TTL = Duration.ofDays(30);

  private final DraftStore store;
  private final GraphValidator validator;
  private final InstantSource clock;

  public DraftService(DraftStore store, GraphValidator validator, InstantSource clock) {
    this.store = store;
    this.validator = validator;
    this.clock = clock;
  }

  public static String draftId(String clusterId, String graphId, String userId) {
    requirePart("cluster_id", clusterId);
    requirePart("graph_id", graphId);
    requirePart("user_id", userId);
    return "draft:" + clusterId + ":" + graphId + ":" + userId;
  }

  public GraphDraft save(
      String clusterId,
      String graphId,
      String userId,
      PipelineGraph graph,
      OptionalLong baseVersion) {
    String id = draftId(clusterId, graphId, userId);
    Instant now = clock.instant();
    DraftValidation validation =
        DraftValidation.newBuilder()
            .setResult(validator.validate(graph, ValidationMode.VALIDATION_MODE_DRAFT))
            .setContentHash(contentHash(graph))
            .setValidatedAt(timestamp(now))
            .build();
    GraphDraft.Builder draft =
        GraphDraft.newBuilder()
            .setDraftId(id)
            .setClusterId(clusterId)
            .setGraphId(graphId)
            .setUserId(userId)
            .setGraph(graph)
            .setValidation(validation)
            .setUpdatedAt(timestamp(now))
            .setExpiresAt(timestamp(now.plus(TTL)));
    baseVersion.ifPresent(draft::setBaseVersion);
    GraphDraft saved = draft.build();
    store.put(saved);
    return saved;
  }

  /** The draft with its expiry pushed out again; an expired draft is absent. */
  public Optional<GraphDraft> get(String clusterId, String graphId, String userId) {
    Instant now = clock.instant();
    return store
        .get(draftId(clusterId, graphId, userId), now)
        .map(
            found -> {
              GraphDraft touched = found.toBuilder().setExpiresAt(timestamp(now.plus(TTL))).build();
              store.put(touched);
              return touched;
            });
  }

  public boolean delete(String clusterId, String graphId, String userId) {
    return store.delete(draftId(clusterId, graphId, userId), clock.instant());
  }

  /** SHA-256 of the graph's deterministic serialization: equal graphs hash equal. */
  static String contentHash(PipelineGraph graph) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      CodedOutputStream out = CodedOutputStream.newInstance(bytes);
      out.useDeterministicSerialization();
      graph.writeTo(out);
      out.flush();
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-256").digest(bytes.toByteArray()));
    } catch (IOException | NoSuchAlgorithmException e) {
      throw new IllegalStateException("cannot hash a graph in memory", e);
    }
  }

  private static void requirePart(String field, String value) {
    if (value == null || value.isBlank()) {
      throw new GraphAdminException(Reason.INVALID_ARGUMENT, field + " must not be blank");
    }
    if (value.contains(":")) {
      throw new GraphAdminException(
          Reason.INVALID_ARGUMENT,
          field
              + " '"
              + value
              + "' must not contain ':' (it separates the parts of the draft key)");
    }
  }

  private static Timestamp timestamp(Instant t) {
    return Timestamp.newBuilder().setSeconds(t.getEpochSecond()).setNanos(t.getNano()).build();
  }
}
