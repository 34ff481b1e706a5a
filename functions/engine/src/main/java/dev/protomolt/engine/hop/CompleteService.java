package dev.protomolt.engine.hop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Timestamp;
import dev.protomolt.core.cel.CelEvaluationFailure;
import dev.protomolt.core.cel.CelInput;
import dev.protomolt.core.cel.MappingPhase;
import dev.protomolt.core.graph.GraphCache.PinnedNode;
import dev.protomolt.core.memo.HopMemos;
import dev.protomolt.core.memo.MemoKey;
import dev.protomolt.core.memo.MemoPolicy;
import dev.protomolt.core.orchestration.DocumentStaging;
import dev.protomolt.core.orchestration.InlinePrepare;
import dev.protomolt.core.orchestration.StateMachineNames;
import dev.protomolt.core.routing.Destination;
import dev.protomolt.core.routing.EdgeBehavior;
import dev.protomolt.core.routing.EdgeRouter;
import dev.protomolt.core.routing.FieldMappings;
import dev.protomolt.core.routing.RoutingDecision;
import dev.protomolt.core.rtbf.SealedStreams;
import dev.protomolt.names.PlatformTopic;
import dev.protomolt.proto.config.v1.GraphEdge;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.ErrorInfo;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.StepExecutionRecord;
import dev.protomolt.proto.data.v1.StepStatus;
import dev.protomolt.proto.data.v1.StreamMetadata;
import dev.protomolt.proto.events.v1.ReclaimRequest;
import dev.protomolt.proto.repository.v1.PipeDocManifest;
import dev.protomolt.tracing.Spans;
import dev.protomolt.tracing.Tracing;
import io.opentelemetry.api.trace.Tracer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code N.Complete} and {@code N.Rejected}: post-mappings, hop count, processing path, the
 * {@code StepExecutionRecord}, routing by priority and staging of each destination by its edge
 * behaviour. Returns {@code { node, workUnitId, destinationCount, stream, destinations, memoized,
 * skipped, prepared }} exactly as the state contract says (with {@code prepared}, the work unit and
 * stream are the next node's Prepare answer, decision 1832; asked {@code directNext}, it routes to
 * one node and prepares it or fails, decision 1834); for {@code outcome: REJECTED} it records the
 * reject and returns
 * {@code { workUnitId }}.
 */
public final class CompleteService {

  /** Context parameter recording why a MEMORY edge ducked to CACHE, keyed by target node. */
  public static final String MEMORY_DUCK_PREFIX = "protomolt.memoryDucked.";

  /**
   * How long a Complete keeps settling memoized hops after its own (decision 1815): a quarter of
   * the shortest function timeout (60 s), so a loaded machine ends the skip early rather than the
   * Lambda's time.
   */
  private static final long SKIP_BUDGET_NANOS = java.time.Duration.ofSeconds(15).toNanos();

  /** The topic the reclaim consumer reads CACHE copies to delete from. */
  public static final String RECLAIM_REQUESTS = PlatformTopic.RECLAIM_REQUESTS.topicName();

  private final HopContext hop;
  private final HopMetrics metrics;
  private final HopMemos memos;
  private final MemoLookup lookup;
  private final PrepareService prepare;
  private final Tracer tracer;
  private final DispatchService dispatch;

  public CompleteService(HopContext hop) {
    this(hop, HopMetrics.none());
  }

  /** Records no memo. */
  public CompleteService(HopContext hop, HopMetrics metrics) {
    this(hop, metrics, HopMemos.NONE);
  }

  /**
   * @param memos where the output of a hop that read a stored input is memoized (decision 1812)
   */
  public CompleteService(HopContext hop, HopMetrics metrics, HopMemos memos) {
    this(hop, metrics, memos, Tracing.off().tracer());
  }

  /**
   * @param tracer where the preparation of the next node done here (decision 1832) gets its own
   *     {@code prepare} span, inside this invocation's
   */
  public CompleteService(HopContext hop, HopMetrics metrics, HopMemos memos, Tracer tracer) {
    this(hop, metrics, memos, tracer, new DispatchService(hop));
  }

  /**
   * @param dispatch hands the next node's work on when the machine asks this Complete to (its
   *     {@code dispatchNext}, decision 1842), as that node's Work would
   */
  public CompleteService(
      HopContext hop, HopMetrics metrics, HopMemos memos, Tracer tracer, DispatchService dispatch) {
    this.hop = hop;
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.memos = Objects.requireNonNull(memos, "memos");
    this.lookup = new MemoLookup(hop, memos);
    this.prepare = new PrepareService(hop, metrics);
    this.tracer = Objects.requireNonNull(tracer, "tracer");
    this.dispatch = Objects.requireNonNull(dispatch, "dispatch");
  }

  public String handle(String payloadJson) {
    JsonNode payload = HopJson.parse(payloadJson);
    HopIdentity id = HopIdentity.of(payload);
    // The module's result: a right-to-be-forgotten body is opened in memory only (decision 1750).
    PipeStream input = hop.opened(HopJson.stream(payload, "stream"));
    String answer = settle(payload, id, input);
    metrics.answered(id, answer);
    metrics.settled(id, input);
    return answer;
  }

  private String settle(JsonNode payload, HopIdentity id, PipeStream input) {
    long startedNanos = System.nanoTime();
    String outcome = HopJson.text(payload, "outcome");
    PinnedNode pinned = hop.pinned(id);
    String workUnitId =
        "INTAKE".equals(outcome)
            ? HopContext.workUnitId(id, input)
            : HopJson.text(payload, "workUnitId");

    StepStatus status =
        switch (outcome) {
          case "CONTINUE", "INTAKE" -> StepStatus.STEP_STATUS_SUCCESS;
          case "NO_OP" -> StepStatus.STEP_STATUS_NO_OP;
          case "SKIPPED" -> StepStatus.STEP_STATUS_SKIPPED;
          case "REJECTED" -> StepStatus.STEP_STATUS_REJECTED;
          default ->
              throw new BadPayloadFailure(
                  "payload field 'outcome' must be one of CONTINUE,"
                      + " NO_OP, SKIPPED, INTAKE, REJECTED; was '"
                      + outcome
                      + "'");
        };
    String memoized =
        input
            .getMetadata()
            .getContextParamsOrDefault(MemoPolicy.MEMOIZED_PARAM_PREFIX + id.nodeId(), "");
    if (!memoized.isEmpty() && status == StepStatus.STEP_STATUS_SUCCESS) {
      // The dispatch function reused an earlier output: no module ran this hop.
      status = StepStatus.STEP_STATUS_MEMOIZED;
    }
    if (status == StepStatus.STEP_STATUS_REJECTED) {
      JsonNode error = payload.path("error");
      hop.recordStep(
          id,
          input,
          pinned.node(),
          status,
          workUnitId,
          List.of(),
          ErrorInfo.newBuilder()
              .setCode(error.path("Error").asText("Module.Reject"))
              .setDetail(error.path("Cause").asText(""))
              .build());
      // A reject ends the walk: the data key goes with it.
      hop.forget(input);
      ObjectNode out = HopJson.object();
      out.put("workUnitId", workUnitId);
      return HopJson.print(out);
    }

    boolean direct = payload.path(InlinePrepare.DIRECT_NEXT_FIELD).asBoolean(false);
    // A re-derivation after the next hop failed (decision 1842) recorded this hop already.
    boolean rederive = payload.path(InlinePrepare.REDERIVE_FIELD).asBoolean(false);
    Settled first = walk(id, input, pinned, outcome, status, workUnitId, false, !direct, rederive);
    if (direct) {
      return direct(first, payload);
    }
    Settled ahead = skipAhead(first, startedNanos);
    boolean skipped = ahead != first;
    Settled last = carried(ahead);
    // Only a machine with the prepared branch asks; after a skip the walk re-enters through Start,
    // which always goes to the node's Prepare.
    Optional<ObjectNode> prepared =
        payload.path(InlinePrepare.PREPARE_NEXT_FIELD).asBoolean(false) && !skipped
            ? prepareNext(last)
            : Optional.empty();
    ObjectNode tree =
        answerTree(
            last.workUnitId(),
            last.destinations(),
            sealedForState(last.workUnitId(), last.staged()),
            last.memoized(),
            skipped,
            prepared);
    String answer = HopJson.print(tree);
    JsonNode next = payload.path(InlinePrepare.DISPATCH_NEXT_FIELD);
    if (next.isObject()) {
      // This state waits on a task token (decision 1843): the node it prepared is handed on as its
      // Work would be, and any other answer (no destination, a fan-out, a skip, an unprepared
      // node) completes the token itself, so the routing choice after it reads it as before.
      if (prepared.isPresent() && nextOf(last).nodeId().equals(next.path("nodeId").asText())) {
        dispatch.dispatch(nextDispatch(nextOf(last), next, tree));
      } else {
        dispatch.answer(next.path("taskToken").asText(), answer);
      }
    }
    if (last.staged().size() != 1) {
      // The walk ends here (no destination), or goes on only as fan-out children each sealed
      // under a key of its own: either way this execution's key is done with.
      hop.forget(input);
    }
    return answer;
  }

  /**
   * One settled hop: its work unit, where it routed, each destination's staged stream (with the
   * hop in its history), and the nodes of this walk answered from a memo so far.
   */
  private record Settled(
      HopIdentity id,
      String workUnitId,
      List<Destination> destinations,
      List<PipeStream> staged,
      List<String> memoized,
      DeferredCarry deferred) {}

  /**
   * The one destination's carry a walk left undone (decision 1839): its stream refers to the
   * carry's source until {@link #carried} makes the copy, which a memo hit on that destination
   * makes needless (the memoized output is restored there instead).
   */
  private record DeferredCarry(
      DocumentReference source, String accountId, String graphId, String nodeId) {}

  /** {@code settled} with its deferred carry made, so its stream refers to its own copy. */
  private Settled carried(Settled settled) {
    DeferredCarry d = settled.deferred();
    if (d == null) {
      return settled;
    }
    DocumentReference ref;
    try {
      ref = hop.staging.carryAll(d.source(), d.accountId(), d.graphId(), d.nodeId(), true);
    } catch (DocumentStaging.TransientStoreFailure e) {
      throw stagingFailed(d.source().getDocId(), d.nodeId(), e);
    }
    PipeStream stream = settled.staged().getFirst().toBuilder().setDocumentRef(ref).build();
    return new Settled(
        settled.id(),
        settled.workUnitId(),
        settled.destinations(),
        List.of(stream),
        settled.memoized(),
        null);
  }

  /**
   * The hop after the mappings ran or the module answered: post-mappings, routing, staging of each
   * destination and the step record.
   */
  private Settled walk(
      HopIdentity id,
      PipeStream input,
      PinnedNode pinned,
      String outcome,
      StepStatus status,
      String workUnitId,
      boolean skipping,
      boolean deferCarry,
      boolean rederive) {
    String preMapped =
        input
            .getMetadata()
            .getContextParamsOrDefault(PrepareService.PRE_MAPPED_PARAM_PREFIX + id.nodeId(), "");
    // Read before the body, so the requests name the copies as this hop found them (decision 0817).
    List<SettledReclaims.Keyed> reclaims = reclaimsOnSettle(input, id, preMapped, workUnitId);
    // Level 2 only where something here needs the bytes (decision 1623): mappings or routing that
    // name the blob bag read them now; a destination that needs the whole body reads them below.
    boolean blobsInHand = !input.hasDocumentRef() || touchesBlobs(pinned, id.nodeId());
    // Nothing here may need the body at all (decision 1838): then every copy this hop makes is a
    // carry of the stored state as it is, and the document in hand only names it.
    boolean bodiless = handsOnUnread(pinned, id.nodeId(), input);
    PipeDoc document =
        bodiless
            ? PipeDoc.newBuilder().setDocId(input.getDocumentRef().getDocId()).build()
            : hop.completeBody(input, id.nodeId(), blobsInHand);
    memoize(id, pinned, input, document, blobsInHand, bodiless);
    // The memoized output, as read, before post-mappings: what the module's answer would store.
    PipeDoc output = document;
    if (status == StepStatus.STEP_STATUS_SUCCESS && !"INTAKE".equals(outcome)
        || status == StepStatus.STEP_STATUS_NO_OP
        || status == StepStatus.STEP_STATUS_MEMOIZED) {
      try {
        document =
            FieldMappings.apply(
                pinned.topology(), pinned.node(), MappingPhase.POST, document, input);
      } catch (FieldMappings.MappingFailure e) {
        throw new MappingFailure(e.getMessage(), e);
      }
    }
    PipeStream stamped = withoutMemoMarkers(stamp(input, id), id);
    if (!preMapped.isEmpty()) {
      // The staged pre-mapped body was this hop's alone; its markers do not travel on.
      stamped =
          stamped.toBuilder()
              .setMetadata(
                  stamped.getMetadata().toBuilder()
                      .removeContextParams(PrepareService.PRE_MAPPED_PARAM_PREFIX + id.nodeId())
                      .removeContextParams(
                          PrepareService.PRE_MAPPED_KEEP_PARAM_PREFIX + id.nodeId()))
              .build();
    }

    RoutingDecision decision;
    try {
      decision = EdgeRouter.route(pinned.topology(), id.nodeId(), new CelInput(document, stamped));
    } catch (CelEvaluationFailure e) {
      throw new RoutingFailure(
          "routing out of node '" + id.nodeId() + "' failed: " + e.getMessage(), e);
    }
    List<Destination> destinations =
        switch (decision) {
          case RoutingDecision.Routed routed -> routed.destinations();
          case RoutingDecision.Terminal terminal -> List.of();
          case RoutingDecision.Failed failed ->
              throw new RoutingFailure(
                  "edge '"
                      + failed.edgeId()
                      + "' out of node '"
                      + id.nodeId()
                      + "' failed: "
                      + failed.reason());
        };

    if (skipping && destinations.size() != 1) {
      // Nothing is written yet: the node runs its own states and ends the walk there.
      throw new NotSkipped();
    }
    if (!destinations.isEmpty() && !reclaims.isEmpty()) {
      // Produced by the next Lambda of the execution, which runs only after this result is
      // recorded, so a retried Complete can still read its input (decision 0816). Added before
      // staging, so the inline budget counts them.
      StreamMetadata.Builder carried = stamped.getMetadata().toBuilder();
      SettledReclaims.carry(carried, reclaims);
      stamped = stamped.toBuilder().setMetadata(carried).build();
    }
    if (!blobsInHand && needsWholeBody(destinations, document, input, stamped)) {
      document = hop.withBlobs(document, input, id.nodeId());
      blobsInHand = true;
    }
    List<PipeStream> staged = new ArrayList<>();
    DeferredCarry deferred = null;
    int inlineBudget = hop.inlineLimitBytes;
    for (Destination destination : destinations) {
      if (deferCarry
          && bodiless
          && destinations.size() == 1
          && EdgeBehavior.of(destination.edge()) == EdgeBehavior.PERSIST) {
        // Skip-ahead looks the destination's memo up first, on the source this copy would carry
        // (the same content, so the same key); a hit restores the memo there instead.
        deferred =
            new DeferredCarry(
                input.getDocumentRef(),
                stamped.getMetadata().getAccountId(),
                id.graphId(),
                destination.toNodeId());
        staged.add(
            stamped.toBuilder()
                .setCurrentNodeId(destination.toNodeId())
                .setDocumentRef(input.getDocumentRef())
                .build());
        continue;
      }
      PipeStream s =
          stage(
              id,
              input,
              stamped,
              document,
              destination,
              workUnitId,
              destinations.size() > 1,
              inlineBudget,
              blobsInHand,
              bodiless);
      if (s.hasDocument()) {
        // Every inline sibling rides in the same state: they share one budget, not one each.
        inlineBudget -= jsonSize(s);
      }
      staged.add(s);
    }
    if (status == StepStatus.STEP_STATUS_MEMOIZED) {
      // Last before the record: a hop that fails before here leaves its address holding its input,
      // so the module that then runs it reads what it would have read.
      restore(id, input, output, blobsInHand, bodiless);
    }
    List<String> to = destinations.stream().map(Destination::toNodeId).toList();
    StepExecutionRecord record =
        rederive
            ? hop.stepRecord(id, input, pinned.node(), status, workUnitId, to, null)
            : hop.recordStep(id, input, pinned.node(), status, workUnitId, to, null);
    // Each destination's stream carries this hop in its history.
    for (int i = 0; i < staged.size(); i++) {
      PipeStream s = staged.get(i);
      staged.set(
          i, s.toBuilder().setMetadata(s.getMetadata().toBuilder().addHistory(record)).build());
    }
    if (destinations.isEmpty()) {
      // A terminal hop has no successor to hand its requests to: they are its last act.
      SettledReclaims.produce(hop, reclaims);
    }
    List<String> memoized = new ArrayList<>();
    for (StepExecutionRecord step : input.getMetadata().getHistoryList()) {
      if (step.getStatus() == StepStatus.STEP_STATUS_MEMOIZED) {
        memoized.add(step.getNodeId());
      }
    }
    if (status == StepStatus.STEP_STATUS_MEMOIZED) {
      memoized.add(id.nodeId());
    }
    return new Settled(id, workUnitId, destinations, staged, List.copyOf(memoized), deferred);
  }

  /**
   * Settles, here, each following hop that would only be answered from its memo (decision 1815):
   * while the walk goes on to exactly one node whose Prepare has nothing to do (no filter, no
   * pre-mapping), whose memo holds this input's output, and whose own routing then names exactly
   * one node, that node's Complete runs in this Lambda as the memoized hop's would, and the
   * execution enters at the first node that must run. Saves the skipped nodes' Prepare, Work, Dispatch and Complete
   * states. Anything that would fail a skipped hop stops the skip before it, so that node runs its
   * own states and fails, is retried or dead-letters there as it would have.
   */
  private Settled skipAhead(Settled from, long startedNanos) {
    Settled at = from;
    while (at.staged().size() == 1) {
      if (System.nanoTime() - startedNanos > SKIP_BUDGET_NANOS) {
        // The rest goes through the states: this Lambda must answer well inside its timeout.
        return at;
      }
      PipeStream next = at.staged().getFirst();
      HopIdentity nextId =
          new HopIdentity(
              at.id().graphId(),
              at.id().graphVersion(),
              at.id().clusterId(),
              at.destinations().getFirst().toNodeId(),
              at.id().executionId());
      try {
        PinnedNode pinned = hop.pinned(nextId);
        if (!skippable(pinned, next)) {
          return at;
        }
        Optional<PipeStream> memoized = lookup.reuse(nextId, pinned, next);
        if (memoized.isEmpty()) {
          return at;
        }
        at =
            walk(
                nextId,
                memoized.get(),
                pinned,
                "CONTINUE",
                StepStatus.STEP_STATUS_MEMOIZED,
                HopContext.workUnitId(nextId, next),
                true,
                true,
                false);
        metrics.settled(nextId, memoized.get());
      } catch (RuntimeException e) {
        // The node runs its own states, which meet the same failure where it is typed.
        return at;
      }
    }
    return at;
  }

  /**
   * The next node's Prepare answer, produced here when the hop routes to exactly one node that
   * {@link InlinePrepare} allows (decision 1832), so the routing choice can go straight to its
   * Work. Empty whenever preparing fails, for any reason: this hop has settled and must not fail
   * for the next node's sake, and the routing choice then enters the node's own Prepare, which
   * meets the failure on the node it belongs to (and is retried or dead-letters there).
   */
  private Optional<ObjectNode> prepareNext(Settled settled) {
    if (settled.staged().size() != 1) {
      return Optional.empty();
    }
    try {
      if (!InlinePrepare.allowed(hop.pinned(nextOf(settled)).node())) {
        return Optional.empty();
      }
      return Optional.of(prepareTraced(settled));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /**
   * The answer of a Complete whose machine goes straight on to the next node's Work (decision
   * 1834): the hop must route to that one node, and the next node is prepared here or this
   * invocation fails, so the failure is retried and dead-lettered by this Complete's own states.
   * Nothing is settled ahead: the Work after this state is the next node's whatever its memo holds,
   * and its Dispatch answers a memo hit without the module.
   */
  private String direct(Settled settled, JsonNode payload) {
    if (settled.staged().size() != 1) {
      throw new RoutingFailure(
          "node '"
              + settled.id().nodeId()
              + "' routed to "
              + settled.destinations().size()
              + " destinations, but its state machine goes straight on to the one node its single"
              + " edge leads to; recompile graph '"
              + settled.id().graphId()
              + "' version "
              + settled.id().graphVersion()
              + " with this platform's compiler");
    }
    ObjectNode prepared = prepareTraced(settled);
    ObjectNode answer =
        answerTree(
            settled.workUnitId(),
            settled.destinations(),
            sealedForState(settled.workUnitId(), settled.staged()),
            settled.memoized(),
            false,
            Optional.of(prepared));
    JsonNode next = payload.path(InlinePrepare.DISPATCH_NEXT_FIELD);
    if (next.isObject()) {
      // This state waits for the next node's task token (decision 1842): its answer is ignored,
      // and the hop goes on from the module's result, or from this node's memo.
      dispatch.dispatch(nextDispatch(nextOf(settled), next, answer));
    }
    if (payload.has("error")) {
      // A state that re-derives the next node's input after its hop failed (decision 1842) passes
      // the failure on to that node's Rejected or Dlq state through this answer.
      answer.set("error", payload.get("error"));
    }
    return HopJson.print(answer);
  }

  /** The next node's Work payload: its hop, the fields the machine set, this answer's input. */
  private static ObjectNode nextDispatch(HopIdentity nextId, JsonNode fields, ObjectNode answer) {
    ObjectNode work = HopJson.object();
    work.put("graphId", nextId.graphId());
    work.put("graphVersion", nextId.graphVersion());
    work.put("clusterId", nextId.clusterId());
    work.put("nodeId", nextId.nodeId());
    work.put("executionId", nextId.executionId());
    fields.properties().forEach(f -> work.set(f.getKey(), f.getValue()));
    work.set("workUnitId", answer.get("workUnitId"));
    work.set("stream", answer.get("stream"));
    return work;
  }

  /** The one destination's Prepare answer, in a {@code prepare} span of its own. */
  private ObjectNode prepareTraced(Settled settled) {
    HopIdentity nextId = nextOf(settled);
    return Spans.inSpan(
        tracer,
        "prepare",
        span -> {
          span.setAttribute(Spans.NODE_ID, nextId.nodeId());
          return prepare.prepareInline(nextId, settled.staged().getFirst());
        });
  }

  private static HopIdentity nextOf(Settled settled) {
    return new HopIdentity(
        settled.id().graphId(),
        settled.id().graphVersion(),
        settled.id().clusterId(),
        settled.destinations().getFirst().toNodeId(),
        settled.id().executionId());
  }

  /** A skipped hop would not route to exactly one node: it must run its own states. */
  private static final class NotSkipped extends RuntimeException {
    NotSkipped() {
      super(null, null, false, false);
    }
  }

  /** Whether a node's hop could be settled by the Complete before it (see {@link #skipAhead}). */
  private static boolean skippable(PinnedNode pinned, PipeStream stream) {
    var node = pinned.node();
    if (!node.getFilterConditionsList().isEmpty() || !node.getPreMappingsList().isEmpty()) {
      return false;
    }
    // Requests carried from the hop before are produced by the next Prepare (decision 0816).
    return stream.getMetadata().getContextParamsMap().keySet().stream()
        .noneMatch(k -> k.startsWith(SettledReclaims.PARAM_PREFIX));
  }

  /**
   * What goes back into execution state: a right-to-be-forgotten body sealed again under its key,
   * or, for fan-out children, each under a new key of its own, destroyed when that child ends.
   */
  private List<PipeStream> sealedForState(String workUnitId, List<PipeStream> staged) {
    if (staged.size() == 1) {
      return List.of(hop.sealed(staged.getFirst()));
    }
    List<PipeStream> sealed = new ArrayList<>();
    for (int i = 0; i < staged.size(); i++) {
      PipeStream s = staged.get(i);
      sealed.add(
          SealedStreams.keyed(s) && s.hasDocument()
              ? hop.sealedUnder(
                  s,
                  SealedStreams.childKeyId(
                      s.getMetadata().getDataKeyId(),
                      StateMachineNames.childExecutionName(workUnitId, i)))
              : s);
    }
    return sealed;
  }

  /**
   * Records the module's output as the memo of the hop's input (decision 1812): a copy at the
   * node's memo address, so the next hop staged at the node's own address cannot replace it, and
   * the index row naming that copy. Only a hop whose Dispatch read a stored input (its checksum
   * rides in the stream) and whose output is stored; never a right-to-be-forgotten document. Best
   * effort: a memo that fails to record costs a later module call, never this hop.
   */
  private void memoize(
      HopIdentity id,
      PinnedNode pinned,
      PipeStream input,
      PipeDoc output,
      boolean blobsInHand,
      boolean bodiless) {
    String inputChecksum =
        input
            .getMetadata()
            .getContextParamsOrDefault(MemoPolicy.INPUT_PARAM_PREFIX + id.nodeId(), "");
    if (inputChecksum.isEmpty()
        || !input.hasDocumentRef()
        || output.getOwnership().getRightToBeForgotten()) {
      return;
    }
    DocumentReference source = input.getDocumentRef();
    String account = input.getMetadata().getAccountId();
    try {
      DocumentReference copy =
          copyAt(
              input,
              output,
              id.graphId(),
              id.nodeId() + MemoPolicy.MEMO_ADDRESS_SUFFIX,
              blobsInHand,
              bodiless);
      Optional<PipeDocManifest> stored = hop.staging.activeManifest(copy);
      if (stored.isPresent()) {
        memos.record(
            MemoKey.of(account, source.getDocId(), id.graphId(), pinned.node(), inputChecksum),
            new HopMemos.Memoized(copy, stored.get().getChecksum()));
      }
    } catch (RuntimeException e) {
      // Not recorded: the next hop with this input calls the module again.
    }
  }

  /**
   * Puts the memoized output back at the node's own address, where a module's answer would have
   * left it (the gateway saves a result there). Until then that address still holds the hop's
   * input: for a parser, the intake copy whose BLOBS only point at the uploaded object, while the
   * output it memoized carries the bytes inline. Every part is carried from the memo copy inside
   * the object store, so the address reads back part for part as after the first run. A node
   * skipped ahead of (decision 1839) usually still holds that output from the run before: the
   * carry then leaves it alone (decision 1840).
   */
  private void restore(
      HopIdentity id, PipeStream input, PipeDoc output, boolean blobsInHand, boolean bodiless) {
    try {
      if (bodiless) {
        hop.staging.carryAllUnlessHeld(
            input.getDocumentRef(), input.getMetadata().getAccountId(), id.graphId(), id.nodeId());
        return;
      }
      copyAt(input, output, id.graphId(), id.nodeId(), blobsInHand, false);
    } catch (DocumentStaging.TransientStoreFailure e) {
      throw new TransientHopFailure(
          "restoring the memoized output of doc '"
              + output.getDocId()
              + "' at node '"
              + id.nodeId()
              + "' failed: "
              + e.getMessage(),
          e);
    }
  }

  /**
   * A PERSIST copy of {@code output}, read from the stored state {@code input} refers to, at
   * {@code address}: a partial save carrying every part the diff sees unchanged, BLOBS included
   * when it was not read; a carry of every part when no part was read.
   */
  private DocumentReference copyAt(
      PipeStream input,
      PipeDoc output,
      String graphId,
      String address,
      boolean blobsInHand,
      boolean bodiless) {
    DocumentReference source = input.getDocumentRef();
    String account = input.getMetadata().getAccountId();
    if (bodiless) {
      return hop.staging.carryAll(source, account, graphId, address, true);
    }
    return blobsInHand
        ? hop.staging.stageFrom(source, output, account, graphId, address, true)
        : hop.staging.stageFromWithoutBlobs(source, output, account, graphId, address, true);
  }

  /** The memo markers of this hop are its own: they do not travel to the next node. */
  private static PipeStream withoutMemoMarkers(PipeStream stream, HopIdentity id) {
    String in = MemoPolicy.INPUT_PARAM_PREFIX + id.nodeId();
    String hit = MemoPolicy.MEMOIZED_PARAM_PREFIX + id.nodeId();
    if (!stream.getMetadata().containsContextParams(in)
        && !stream.getMetadata().containsContextParams(hit)) {
      return stream;
    }
    return stream.toBuilder()
        .setMetadata(
            stream.getMetadata().toBuilder().removeContextParams(in).removeContextParams(hit))
        .build();
  }

  private PipeStream stamp(PipeStream input, HopIdentity id) {
    Instant now = hop.clock.instant();
    StreamMetadata metadata =
        input.getMetadata().toBuilder()
            .setHopCount(input.getMetadata().getHopCount() + 1)
            .addProcessingPath(id.nodeId())
            .setLastProcessedAt(
                Timestamp.newBuilder().setSeconds(now.getEpochSecond()).setNanos(now.getNano()))
            .build();
    return input.toBuilder().setMetadata(metadata).build();
  }

  /**
   * Stages one destination's own body: siblings never share one. MEMORY travels inline unless the
   * stream would pass the inline limit, where it ducks to CACHE with the reason recorded, except for a
   * right-to-be-forgotten document, which is refused rather than written down.
   */
  private PipeStream stage(
      HopIdentity id,
      PipeStream input,
      PipeStream stamped,
      PipeDoc document,
      Destination destination,
      String workUnitId,
      boolean child,
      int inlineBudget,
      boolean blobsInHand,
      boolean bodiless) {
    StreamMetadata.Builder metadata = stamped.getMetadata().toBuilder();
    if (child) {
      metadata.setParentWorkUnitId(workUnitId);
    }
    PipeStream.Builder out = stamped.toBuilder().setCurrentNodeId(destination.toNodeId());
    EdgeBehavior behavior = EdgeBehavior.of(destination.edge(), document);
    boolean forgettable = document.getOwnership().getRightToBeForgotten();
    if (behavior == EdgeBehavior.MEMORY) {
      PipeStream inline = out.setMetadata(metadata).setDocument(document).build();
      int size = jsonSize(inline);
      if (size <= inlineBudget) {
        return inline;
      }
      String over =
          "its stream is "
              + size
              + " bytes and "
              + Math.max(0, inlineBudget)
              + " of the inline limit of "
              + hop.inlineLimitBytes
              + " are left on MEMORY edge '"
              + destination.edge().getEdgeId()
              + "'";
      if (forgettable) {
        throw new RtbfTooLargeFailure(
            "doc '"
                + document.getDocId()
                + "' is right-to-be-forgotten"
                + " and "
                + over
                + "; it is refused and never stored");
      }
      metadata.putContextParams(
          MEMORY_DUCK_PREFIX + destination.toNodeId(), over + "; staged as CACHE");
      behavior = EdgeBehavior.CACHE;
    }
    try {
      String account = stamped.getMetadata().getAccountId();
      boolean keep = behavior == EdgeBehavior.PERSIST;
      // A body read from a stored state is saved as a partial save over it: the written parts are
      // whatever the per-part diff observes changed (post-mappings included), never what the
      // module claims; the rest is carried forward by server-side copy (decision 0813).
      DocumentReference ref;
      if (bodiless) {
        // The body was not read: the stored state is carried to the destination as it is.
        ref =
            hop.staging.carryAll(
                input.getDocumentRef(), account, id.graphId(), destination.toNodeId(), keep);
      } else if (!input.hasDocumentRef()) {
        ref = hop.staging.stage(document, account, id.graphId(), destination.toNodeId(), keep);
      } else if (blobsInHand) {
        ref =
            hop.staging.stageFrom(
                input.getDocumentRef(),
                document,
                account,
                id.graphId(),
                destination.toNodeId(),
                keep);
      } else {
        // BLOBS was not read: the save carries it from the input's stored state.
        ref =
            hop.staging.stageFromWithoutBlobs(
                input.getDocumentRef(),
                document,
                account,
                id.graphId(),
                destination.toNodeId(),
                keep);
      }
      return out.setMetadata(metadata).setDocumentRef(ref).build();
    } catch (DocumentStaging.TransientStoreFailure e) {
      throw stagingFailed(document.getDocId(), destination.toNodeId(), e);
    }
  }

  /** A destination's copy failed in the store: the hop is retried, named by doc and node. */
  private static TransientHopFailure stagingFailed(
      String docId, String nodeId, DocumentStaging.TransientStoreFailure e) {
    return new TransientHopFailure(
        "staging doc '" + docId + "' for node '" + nodeId + "' failed: " + e.getMessage(), e);
  }

  /**
   * Whether the hop can settle without reading its body (decision 1838): the body is stored, no
   * post-mapping changes it, no edge condition reads it, and no edge out of the node is MEMORY
   * (which travels inline). Each destination then gets a carry of the stored state, and so does a
   * memo. A stored document is never right-to-be-forgotten (the store refuses one, decision
   * 0814), so the edges' own behaviour is the behaviour.
   */
  private static boolean handsOnUnread(PinnedNode pinned, String nodeId, PipeStream input) {
    if (!input.hasDocumentRef()
        || !pinned.node().getPostMappingsList().isEmpty()
        || !input.getDocumentRef().getAccountId().equals(input.getMetadata().getAccountId())) {
      return false;
    }
    for (GraphEdge edge : pinned.topology().edgesFrom(nodeId)) {
      if (!edge.getCondition().isBlank() || EdgeBehavior.of(edge) == EdgeBehavior.MEMORY) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether this node's post-mappings or the conditions of its outgoing edges mention the blob bag:
   * they run on the body in hand, so its bytes must be read first. A textual check, deliberately
   * wide: a false yes only costs a read.
   */
  private static boolean touchesBlobs(PinnedNode pinned, String nodeId) {
    for (var mapping : pinned.node().getPostMappingsList()) {
      if (namesBlobs(mapping.toString())) {
        return true;
      }
    }
    for (GraphEdge edge : pinned.topology().edgesFrom(nodeId)) {
      if (namesBlobs(edge.getCondition())) {
        return true;
      }
    }
    return false;
  }

  private static boolean namesBlobs(String text) {
    return text.contains("blob_bag") || text.contains("blobBag");
  }

  /**
   * Whether a destination needs the whole body rather than a carry from the input's stored state:
   * a MEMORY copy travels inline (even one that may duck, whose size is judged on the whole body),
   * and a save into another account or under another doc id cannot carry parts.
   */
  private static boolean needsWholeBody(
      List<Destination> destinations, PipeDoc document, PipeStream input, PipeStream stamped) {
    DocumentReference source = input.getDocumentRef();
    if (!source.getAccountId().equals(stamped.getMetadata().getAccountId())
        || !source.getDocId().equals(document.getDocId())) {
      return !destinations.isEmpty();
    }
    return destinations.stream()
        .anyMatch(d -> EdgeBehavior.of(d.edge(), document) == EdgeBehavior.MEMORY);
  }

  private static int jsonSize(PipeStream stream) {
    return HopJson.print(HopJson.tree(stream)).getBytes(StandardCharsets.UTF_8).length;
  }

  /**
   * The reclaim requests this hop owes once it settles: its consumed CACHE input (keep=false) and
   * the CACHE copy Prepare staged for its pre-mapped body, each naming the exact stored state by its
   * manifest checksum and save time, so a late request never takes a newer copy at the same
   * address (decision 0817). A copy already gone needs no request.
   */
  private List<SettledReclaims.Keyed> reclaimsOnSettle(
      PipeStream input, HopIdentity id, String preMapped, String workUnitId) {
    List<SettledReclaims.Keyed> requests = new ArrayList<>();
    boolean inputIsPreMapped =
        input.hasDocumentRef() && input.getDocumentRef().getGraphAddressId().equals(preMapped);
    if (!preMapped.isEmpty() && !inputIsPreMapped) {
      DocumentReference pre =
          DocumentReference.newBuilder()
              .setDocId(HopContext.docId(input))
              .setAccountId(input.getMetadata().getAccountId())
              .setGraphId(id.graphId())
              .setGraphAddressId(preMapped)
              .setKeep(false)
              .build();
      request(pre, "pre-mapped body of work unit " + workUnitId, workUnitId)
          .ifPresent(r -> requests.add(new SettledReclaims.Keyed(workUnitId + ":pre", r)));
    }
    if (input.hasDocumentRef() && !input.getDocumentRef().getKeep()) {
      request(input.getDocumentRef(), "CACHE input consumed by work unit " + workUnitId, workUnitId)
          .ifPresent(r -> requests.add(new SettledReclaims.Keyed(workUnitId, r)));
    }
    return requests;
  }

  private Optional<ReclaimRequest> request(
      DocumentReference ref, String reason, String workUnitId) {
    Optional<PipeDocManifest> manifest;
    try {
      manifest = hop.staging.activeManifest(ref);
    } catch (DocumentStaging.TransientStoreFailure e) {
      throw new TransientHopFailure(
          "reading the manifest of the "
              + reason
              + " (doc '"
              + ref.getDocId()
              + "') failed: "
              + e.getMessage(),
          e);
    }
    Instant now = hop.clock.instant();
    return manifest.map(
        m ->
            ReclaimRequest.newBuilder()
                .setDocumentRef(ref)
                .setReason(reason)
                .setWorkUnitId(workUnitId)
                .setRequestedAt(
                    Timestamp.newBuilder().setSeconds(now.getEpochSecond()).setNanos(now.getNano()))
                .setExpectedChecksum(m.getChecksum())
                .setExpectedUpdatedAt(m.getUpdatedAt())
                .build());
  }

  private static ObjectNode answerTree(
      String workUnitId,
      List<Destination> destinations,
      List<PipeStream> staged,
      List<String> memoized,
      boolean skipped,
      Optional<ObjectNode> prepared) {
    ObjectNode out = HopJson.object();
    // The nodes of this walk answered from a memo, which the walk's disposition reports.
    ArrayNode memo = out.putArray("memoized");
    memoized.forEach(memo::add);
    // True when the destination is not this node's but a later one's (the skip of decision 1815).
    out.put("skipped", skipped);
    boolean single = destinations.size() == 1;
    out.put("node", single ? destinations.getFirst().toNodeId() : "");
    out.put("workUnitId", workUnitId);
    out.put("destinationCount", destinations.size());
    if (single) {
      out.set("stream", HopJson.tree(staged.getFirst()));
    } else {
      out.putNull("stream");
    }
    // Prepared: the work unit and stream are the next node's, as its Prepare would have answered,
    // and the routing choice goes straight to its Work (decision 1832).
    out.put(InlinePrepare.PREPARED_FIELD, prepared.isPresent());
    prepared.ifPresent(
        p -> {
          out.set("workUnitId", p.get("workUnitId"));
          out.set("stream", p.get("stream"));
        });
    ArrayNode list = out.putArray("destinations");
    if (destinations.size() > 1) {
      for (int i = 0; i < destinations.size(); i++) {
        ObjectNode d = list.addObject();
        d.put("node", destinations.get(i).toNodeId());
        d.set("stream", HopJson.tree(staged.get(i)));
        d.put("executionName", StateMachineNames.childExecutionName(workUnitId, i));
      }
    }
    return out;
  }
}
