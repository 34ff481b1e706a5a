package dev.protomolt.engine.hop;

import com.google.protobuf.Timestamp;
import dev.protomolt.core.graph.GraphCache;
import dev.protomolt.core.graph.GraphCache.PinnedNode;
import dev.protomolt.core.graph.OrphanedPinException;
import dev.protomolt.core.orchestration.DocumentStaging;
import dev.protomolt.core.orchestration.EventBus;
import dev.protomolt.core.orchestration.StateMachineNames;
import dev.protomolt.core.routing.InlineBudget;
import dev.protomolt.core.rtbf.DataKeyGoneException;
import dev.protomolt.core.rtbf.DataKeys;
import dev.protomolt.core.rtbf.SealedStreams;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.data.v1.ErrorInfo;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeDocPart;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.StepExecutionRecord;
import dev.protomolt.proto.data.v1.StepStatus;
import java.time.Instant;
import java.time.InstantSource;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;

/**
 * What every hop service shares: the pinned graph versions, the document store, the event bus, the
 * clock, the inline size limit and the execution transcripts. One instance per Lambda container.
 */
public final class HopContext {

  /**
   * Inline bodies are held to this many bytes of stream JSON, shared by every inline copy one hop
   * hands on; graph validation quotes the same figure.
   */
  public static final int DEFAULT_INLINE_LIMIT = InlineBudget.DEFAULT_BYTES;

  final GraphCache graphs;
  final DocumentStaging staging;
  final EventBus events;
  final InstantSource clock;
  final int inlineLimitBytes;
  final ExecutionTranscripts transcripts;
  final SealedStreams seals;

  /** A context that writes no execution transcripts. */
  public HopContext(
      GraphCache graphs,
      DocumentStaging staging,
      EventBus events,
      InstantSource clock,
      int inlineLimitBytes) {
    this(graphs, staging, events, clock, inlineLimitBytes, ExecutionTranscripts.OFF);
  }

  /** A context whose hops write each execution's transcript through {@code transcripts}. */
  public HopContext(
      GraphCache graphs,
      DocumentStaging staging,
      EventBus events,
      InstantSource clock,
      int inlineLimitBytes,
      ExecutionTranscripts transcripts) {
    this(
        graphs,
        staging,
        events,
        clock,
        inlineLimitBytes,
        transcripts,
        new SealedStreams(DataKeys.unconfigured(NO_DATA_KEYS)));
  }

  /**
   * A context whose hops open and seal right-to-be-forgotten bodies with {@code seals} (decision
   * 1750).
   */
  public HopContext(
      GraphCache graphs,
      DocumentStaging staging,
      EventBus events,
      InstantSource clock,
      int inlineLimitBytes,
      ExecutionTranscripts transcripts,
      SealedStreams seals) {
    this.seals = Objects.requireNonNull(seals, "seals");
    this.transcripts = Objects.requireNonNull(transcripts, "transcripts");
    this.graphs = Objects.requireNonNull(graphs, "graphs");
    this.staging = Objects.requireNonNull(staging, "staging");
    this.events = Objects.requireNonNull(events, "events");
    this.clock = Objects.requireNonNull(clock, "clock");
    if (inlineLimitBytes <= 0) {
      throw new IllegalArgumentException(
          "inlineLimitBytes must be positive, was " + inlineLimitBytes);
    }
    this.inlineLimitBytes = inlineLimitBytes;
  }

  /** Why a hop given no data keys refuses a sealed body. */
  public static final String NO_DATA_KEYS =
      "this function has no data keys (PROTOMOLT_DATA_KEY_ARN is not set), so it cannot open or"
          + " seal a right-to-be-forgotten body";

  /** The stream with a sealed body opened in memory (decision 1750). */
  PipeStream opened(PipeStream stream) {
    try {
      return seals.open(stream);
    } catch (DataKeyGoneException | IllegalArgumentException | IllegalStateException e) {
      throw new BadPayloadFailure("payload field 'stream': " + e.getMessage(), e);
    }
  }

  /** The stream as it may go back into execution state: a keyed body sealed again. */
  PipeStream sealed(PipeStream stream) {
    try {
      return seals.seal(stream);
    } catch (DataKeyGoneException | IllegalStateException e) {
      throw new BadPayloadFailure(
          "sealing stream '" + stream.getStreamId() + "': " + e.getMessage(), e);
    }
  }

  /** The stream sealed under a new key {@code keyId} (a fan-out child's own). */
  PipeStream sealedUnder(PipeStream stream, String keyId) {
    try {
      return seals.sealNew(stream, keyId);
    } catch (IllegalStateException e) {
      throw new BadPayloadFailure(
          "sealing stream '" + stream.getStreamId() + "': " + e.getMessage(), e);
    }
  }

  /** The stream's walk ends here: its data key, if any, is destroyed. */
  void forget(PipeStream stream) {
    seals.forget(stream);
  }

  PinnedNode pinned(HopIdentity id) {
    try {
      return graphs.nodePinned(id.graphId(), id.graphVersion(), id.nodeId());
    } catch (OrphanedPinException e) {
      throw new OrphanedPinFailure(e.getMessage(), e);
    }
  }

  /**
   * Refuses a stream {@link #body} would refuse, without reading anything: a hop that needs no
   * bytes still fails on a stream that carries none, where a reader would.
   */
  void requireBody(PipeStream stream) {
    switch (stream.getPayloadCase()) {
      case DOCUMENT, DOCUMENT_REF -> {}
      case SEALED_DOCUMENT ->
          throw new IllegalStateException(
              "stream '" + stream.getStreamId() + "' must be opened before its body is read");
      case PAYLOAD_NOT_SET ->
          throw new BadPayloadFailure(
              "stream '" + stream.getStreamId() + "' carries neither document nor documentRef");
    }
  }

  /** Level 1 (and, if the module's capabilities say so, level 2) hydration of the stream's body. */
  PipeDoc body(PipeStream stream, GraphNode node) {
    return switch (stream.getPayloadCase()) {
      case DOCUMENT -> stream.getDocument();
      case DOCUMENT_REF -> {
        var caps = node.getCapabilities();
        var parts =
            caps.getRequiredPartsList().isEmpty()
                ? EnumSet.noneOf(PipeDocPart.class)
                : EnumSet.copyOf(caps.getRequiredPartsList());
        try {
          yield staging.hydrate(stream.getDocumentRef(), parts, caps.getNeedsBlobContent());
        } catch (DocumentStaging.TransientStoreFailure e) {
          throw new TransientHopFailure(
              "hydrating doc '"
                  + stream.getDocumentRef().getDocId()
                  + "' for node '"
                  + node.getNodeId()
                  + "' failed: "
                  + e.getMessage(),
              e);
        }
      }
      case SEALED_DOCUMENT, PAYLOAD_NOT_SET -> {
        requireBody(stream);
        throw new AssertionError("requireBody refuses " + stream.getPayloadCase());
      }
    };
  }

  /**
   * The stream's body as Complete needs it: every part, and the blob bytes only when {@code
   * withBlobs}. Level 1 / level 2 masks are about what a module is handed; Complete reads all but
   * BLOBS and carries BLOBS forward from the stored state when the bytes are not needed here
   * (decision 1623), so nothing is lost between hops.
   */
  PipeDoc completeBody(PipeStream stream, String nodeId, boolean withBlobs) {
    if (!stream.hasDocumentRef()) {
      return body(stream, GraphNode.newBuilder().setNodeId(nodeId).build());
    }
    return read(stream, nodeId, EnumSet.noneOf(PipeDocPart.class), withBlobs);
  }

  /** {@code document} with the blob bag of the stream's stored state read in (BLOBS only). */
  PipeDoc withBlobs(PipeDoc document, PipeStream stream, String nodeId) {
    PipeDoc blobs = read(stream, nodeId, EnumSet.of(PipeDocPart.PIPE_DOC_PART_BLOBS), true);
    return blobs.hasBlobBag()
        ? document.toBuilder().setBlobBag(blobs.getBlobBag()).build()
        : document.toBuilder().clearBlobBag().build();
  }

  private PipeDoc read(
      PipeStream stream, String nodeId, EnumSet<PipeDocPart> parts, boolean withBlobs) {
    try {
      return staging.hydrate(stream.getDocumentRef(), parts, withBlobs);
    } catch (DocumentStaging.TransientStoreFailure e) {
      throw new TransientHopFailure(
          "hydrating doc '"
              + stream.getDocumentRef().getDocId()
              + "' at node '"
              + nodeId
              + "' failed: "
              + e.getMessage(),
          e);
    }
  }

  /**
   * The hop's work unit id: stable for one hop of one execution (a heartbeat re-dispatch or a
   * retried Lambda computes the same one), distinct for a later visit of the same node in a cycle.
   */
  static String workUnitId(HopIdentity id, PipeStream stream) {
    return StateMachineNames.hashOf(
        "work-unit",
        id.clusterId(),
        id.graphId(),
        Long.toString(id.graphVersion()),
        id.nodeId(),
        id.executionId(),
        Integer.toString(stream.getMetadata().getHopCount()));
  }

  /** Builds a step record, produces it on pipeline-events (keyed by work unit id) and returns it. */
  StepExecutionRecord recordStep(
      HopIdentity id,
      PipeStream stream,
      GraphNode node,
      StepStatus status,
      String workUnitId,
      List<String> destinations,
      ErrorInfo error) {
    StepExecutionRecord built =
        stepRecord(id, stream, node, status, workUnitId, destinations, error);
    events.publish(EventBus.PIPELINE_EVENTS, workUnitId + ":" + status.name(), built.toByteArray());
    // After the step is published: the transcript is best effort and never holds the hop.
    transcripts.disposition(id, stream, built);
    return built;
  }

  /** The step record {@link #recordStep} would produce, without producing it. */
  StepExecutionRecord stepRecord(
      HopIdentity id,
      PipeStream stream,
      GraphNode node,
      StepStatus status,
      String workUnitId,
      List<String> destinations,
      ErrorInfo error) {
    Instant now = clock.instant();
    StepExecutionRecord.Builder record =
        StepExecutionRecord.newBuilder()
            .setStreamId(stream.getStreamId())
            .setDocId(docId(stream))
            .setGraphId(id.graphId())
            .setGraphVersion(id.graphVersion())
            .setNodeId(id.nodeId())
            .setModuleId(node.getModuleId())
            .setHopNumber(stream.getMetadata().getHopCount() + 1)
            .setFinishedAt(
                Timestamp.newBuilder().setSeconds(now.getEpochSecond()).setNanos(now.getNano()))
            .setStatus(status)
            .setWorkUnitId(workUnitId)
            .addAllDestinations(destinations);
    if (error != null) {
      record.setError(error);
    }
    return record.build();
  }

  static String docId(PipeStream stream) {
    return stream.hasDocumentRef()
        ? stream.getDocumentRef().getDocId()
        : stream.getDocument().getDocId();
  }
}
