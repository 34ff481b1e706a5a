package dev.protomolt.engine.hop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.protomolt.core.cel.CelEvaluationFailure;
import dev.protomolt.core.cel.CelInput;
import dev.protomolt.core.cel.MappingPhase;
import dev.protomolt.core.graph.GraphCache.PinnedNode;
import dev.protomolt.core.orchestration.DocumentStaging;
import dev.protomolt.core.orchestration.InlinePrepare;
import dev.protomolt.core.routing.FieldMappings;
import dev.protomolt.core.routing.FilterOutcome;
import dev.protomolt.core.routing.NodeFilter;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.ErrorInfo;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.StepStatus;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * {@code N.Prepare}: resolves the pinned node, hydrates the body, evaluates the node's filter and
 * applies its pre-mappings, and names the hop's work unit. Returns
 * {@code { action: RUN | SKIP | DROP, workUnitId, stream }}; DROP only after the DROPPED step record
 * was produced.
 *
 * <p>The Complete before a node without a filter runs the same preparation itself (decision 1832):
 * see {@link #prepareInline}.
 */
public final class PrepareService {

  /** The address suffix of a pre-mapped body staged beside its node's input copy. */
  public static final String PRE_MAPPED_SUFFIX = ".pre";

  /** Context parameter naming the CACHE address of a node's staged pre-mapped body, keyed by node. */
  public static final String PRE_MAPPED_PARAM_PREFIX = "protomolt.preMapped.";

  /**
   * Context parameter recording, beside a staged pre-mapped body, the keep flag of the node's own
   * input copy, so Dispatch can tell the gateway the staging of the address it saves the result at
   * (decision 0815).
   */
  public static final String PRE_MAPPED_KEEP_PARAM_PREFIX = "protomolt.preMappedKeep.";

  private final HopContext hop;
  private final HopMetrics metrics;

  public PrepareService(HopContext hop) {
    this(hop, HopMetrics.none());
  }

  public PrepareService(HopContext hop, HopMetrics metrics) {
    this.hop = hop;
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  public String handle(String payloadJson) {
    JsonNode payload = HopJson.parse(payloadJson);
    HopIdentity id = HopIdentity.of(payload);
    String answer = prepare(payload, id);
    metrics.answered(id, answer);
    return answer;
  }

  /**
   * The answer {@code N.Prepare} would give for {@code stream}, produced by the Complete before it
   * (decision 1832). Carried reclaim requests stay in the stream: that Complete has not settled
   * yet, so the destination's Dispatch produces them (decision 0816).
   *
   * @param stream the destination's staged stream, opened
   * @throws IllegalArgumentException when the node is not one {@link InlinePrepare} allows
   */
  ObjectNode prepareInline(HopIdentity id, PipeStream stream) {
    PinnedNode pinned = hop.pinned(id);
    if (!InlinePrepare.allowed(pinned.node())) {
      throw new IllegalArgumentException("node '" + id.nodeId() + "' has a filter");
    }
    // No payload metric of its own: the answer travels inside Complete's, which is measured.
    return prepared(id, pinned, stream);
  }

  private String prepare(JsonNode payload, HopIdentity id) {
    // The previous hop has settled once this Lambda runs: its reclaim requests go out now, and
    // no further (decision 0816).
    // A right-to-be-forgotten body is opened in memory only, and sealed again in the answer.
    PipeStream stream =
        SettledReclaims.produceCarried(hop, hop.opened(HopJson.stream(payload, "stream")));
    return HopJson.print(prepared(id, hop.pinned(id), stream));
  }

  private ObjectNode prepared(HopIdentity id, PinnedNode pinned, PipeStream stream) {
    String workUnitId = HopContext.workUnitId(id, stream);
    if (pinned.node().getFilterConditionsList().isEmpty()
        && pinned.node().getPreMappingsList().isEmpty()) {
      // Nothing here reads the document: the module hydrates what it needs itself, so the body
      // is only checked to be there, not fetched (a hydration of every part the node requires).
      hop.requireBody(stream);
      return run(id, pinned, stream, stream, workUnitId);
    }
    PipeDoc document = hop.body(stream, pinned.node());

    FilterOutcome filter;
    try {
      filter =
          NodeFilter.evaluate(pinned.topology(), pinned.node(), new CelInput(document, stream));
    } catch (CelEvaluationFailure e) {
      throw new FilterFailure("filter of node '" + id.nodeId() + "' failed: " + e.getMessage(), e);
    }
    return switch (filter) {
      case FilterOutcome.Drop drop -> {
        hop.recordStep(
            id,
            stream,
            pinned.node(),
            StepStatus.STEP_STATUS_DROPPED,
            workUnitId,
            List.of(),
            ErrorInfo.newBuilder().setCode("Filter.Drop").setMessage(drop.description()).build());
        ObjectNode dropped = answer("DROP", workUnitId, stream);
        // DROP ends the walk: the data key goes, so the history's ciphertext stays shut.
        hop.forget(stream);
        yield dropped;
      }
      case FilterOutcome.Skip skip -> answer("SKIP", workUnitId, stream);
      case FilterOutcome.Run run ->
          run(id, pinned, stream, withPreMappings(id, pinned, stream, document), workUnitId);
    };
  }

  /** A RUN answer handing the module {@code prepared}, with the dispatch transcript of it. */
  private ObjectNode run(
      HopIdentity id,
      PinnedNode pinned,
      PipeStream stream,
      PipeStream prepared,
      String workUnitId) {
    ObjectNode answer = answer("RUN", workUnitId, prepared);
    hop.transcripts.dispatched(id, stream, pinned.node(), workUnitId, hop.clock.instant());
    return answer;
  }

  private PipeStream withPreMappings(
      HopIdentity id, PinnedNode pinned, PipeStream stream, PipeDoc document) {
    PipeDoc mapped;
    try {
      mapped =
          FieldMappings.apply(pinned.topology(), pinned.node(), MappingPhase.PRE, document, stream);
    } catch (FieldMappings.MappingFailure e) {
      throw new MappingFailure(e.getMessage(), e);
    }
    if (mapped.equals(document)) {
      // Unchanged: a referenced body stays a reference, the module hydrates it itself.
      return stream;
    }
    PipeStream inline = stream.toBuilder().setDocument(mapped).build();
    if (stream.hasDocument()
        || HopJson.print(HopJson.tree(inline)).getBytes(StandardCharsets.UTF_8).length
            <= hop.inlineLimitBytes) {
      return inline;
    }
    // A changed referenced body too large to ride inline is staged for this hop only (CACHE) at
    // its own address beside the node's, never over the node's input copy.
    try {
      // A partial save over the input copy: only what the pre-mappings changed is written.
      var ref =
          hop.staging.stageFrom(
              stream.getDocumentRef(),
              mapped,
              stream.getMetadata().getAccountId(),
              id.graphId(),
              id.nodeId() + PRE_MAPPED_SUFFIX,
              false);
      // Complete asks for this copy's reclaim once the hop settles: the stream no longer names it
      // after the module's result replaces the reference.
      var metadata =
          stream.getMetadata().toBuilder()
              .putContextParams(PRE_MAPPED_PARAM_PREFIX + id.nodeId(), ref.getGraphAddressId());
      DocumentReference input = stream.getDocumentRef();
      if (input.getGraphAddressId().equals(id.nodeId())
          && input.getGraphId().equals(id.graphId())) {
        // The input is the node's own copy: its flag is the edge behaviour of the address the
        // gateway will save the module's result at, which the CACHE pre-mapped copy must not
        // replace.
        metadata.putContextParams(
            PRE_MAPPED_KEEP_PARAM_PREFIX + id.nodeId(), Boolean.toString(input.getKeep()));
      }
      return stream.toBuilder().setDocumentRef(ref).setMetadata(metadata).build();
    } catch (DocumentStaging.TransientStoreFailure e) {
      throw new TransientHopFailure(
          "staging the pre-mapped body of node '" + id.nodeId() + "' failed: " + e.getMessage(), e);
    }
  }

  private ObjectNode answer(String action, String workUnitId, PipeStream stream) {
    ObjectNode out = HopJson.object();
    out.put("action", action);
    out.put("workUnitId", workUnitId);
    out.set("stream", HopJson.tree(hop.sealed(stream)));
    return out;
  }
}
