package dev.protomolt.engine.hop;

import static dev.protomolt.core.graph.SampleGraphs.edge;
import static dev.protomolt.core.graph.SampleGraphs.intake;
import static dev.protomolt.core.graph.SampleGraphs.processor;
import static dev.protomolt.core.graph.SampleGraphs.sink;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.protomolt.engine.reclaim.ReclaimService;
import dev.protomolt.names.PlatformMetric;
import dev.protomolt.proto.config.v1.FilterAction;
import dev.protomolt.proto.config.v1.FilterCondition;
import dev.protomolt.proto.config.v1.MappingType;
import dev.protomolt.proto.config.v1.ModuleCapabilities;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.ProcessingMapping;
import dev.protomolt.proto.config.v1.TransportType;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.OwnershipContext;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.data.v1.StreamMetadata;
import dev.protomolt.proto.events.v1.DlqMessage;
import dev.protomolt.proto.events.v1.ReclaimRequest;
import dev.protomolt.proto.repository.v1.GetPipeDocManifestRequest;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The hop services called directly with state-contract payloads: MEMORY staging and its 256 KB
 * duck rule (here with a 2 KB limit), right-to-be-forgotten refusal, level 2 hydration, work unit
 * determinism and bad payloads.
 */
class HopServicesTest {

  private static final int LIMIT = 2048;
  private HopHarness h;

  @BeforeEach
  void start() {
    h = new HopHarness(LIMIT);
    PipelineGraph graph =
        PipelineGraph.newBuilder()
            .setGraphId("g3")
            .setClusterId("c1")
            .setAccountId("acme")
            .setName("memory")
            .addNodes(intake("in", "ds-1"))
            .addNodes(
                processor("parse", "parser").toBuilder()
                    .setCapabilities(ModuleCapabilities.newBuilder().setNeedsBlobContent(true)))
            .addNodes(sink("index", "plan-1"))
            .addEdges(edge("e1", "in", "parse"))
            .addEdges(
                edge("e2", "parse", "index").toBuilder()
                    .setTransportType(TransportType.TRANSPORT_TYPE_MEMORY))
            .build();
    h.admin.create(graph, OptionalLong.empty(), "ann");
    h.admin.create(
        PipelineGraph.newBuilder()
            .setGraphId("g4")
            .setClusterId("c1")
            .setAccountId("acme")
            .setName("memory fan-out")
            .addNodes(intake("in", "ds-2"))
            .addNodes(
                processor("parse", "parser").toBuilder()
                    .addPreMappings(
                        ProcessingMapping.newBuilder()
                            .setMappingId("title-to-body")
                            .setMappingType(MappingType.MAPPING_TYPE_DIRECT)
                            .addSourceFieldPaths("search_metadata.title")
                            .setTargetFieldPath("search_metadata.body")))
            .addNodes(sink("a", "plan-1"))
            .addNodes(sink("b", "plan-2"))
            .addEdges(edge("e1", "in", "parse"))
            .addEdges(
                edge("e2", "parse", "a").toBuilder()
                    .setTransportType(TransportType.TRANSPORT_TYPE_MEMORY))
            .addEdges(
                edge("e3", "parse", "b").toBuilder()
                    .setTransportType(TransportType.TRANSPORT_TYPE_MEMORY)
                    .setPriority(1))
            .build(),
        OptionalLong.empty(),
        "ann");
  }

  @Test
  void preMappingsChangeAReferencedBodyWhichThenRidesInline() {
    PipeDoc stored =
        doc("m", 10, false).toBuilder()
            .setSearchMetadata(SearchMetadata.newBuilder().setTitle("Quarterly").setBody("old"))
            .build();
    DocumentReference ref = h.staging.stage(stored, "acme", "g4", "parse", true);
    ObjectNode payload = payload("parse").put("graphId", "g4");
    payload.set(
        "stream", tree(PipeStream.newBuilder().setStreamId("s").setDocumentRef(ref).build()));

    JsonNode out = HopHarness.parse(h.prepare.handle(payload.toString()));

    assertThat(out.get("action").asText()).isEqualTo("RUN");
    assertThat(out.at("/stream/document/searchMetadata/body").asText()).isEqualTo("Quarterly");
    assertThat(out.at("/stream").has("documentRef")).isFalse();
  }

  @Test
  void aPreMappedBodyTooLargeToRideInlineIsStagedAsCacheAndReclaimedOnceTheHopCompletes()
      throws Exception {
    PipeDoc stored =
        doc("p", 10, false).toBuilder()
            .setSearchMetadata(
                SearchMetadata.newBuilder().setTitle("t".repeat(3000)).setBody("old"))
            .build();
    DocumentReference input = h.staging.stage(stored, "acme", "g4", "parse", true);
    ObjectNode prepare = payload("parse").put("graphId", "g4");
    prepare.set(
        "stream",
        tree(
            PipeStream.newBuilder()
                .setStreamId("s")
                .setDocumentRef(input)
                .setMetadata(StreamMetadata.newBuilder().setAccountId("acme"))
                .build()));

    JsonNode prepared = HopHarness.parse(h.prepare.handle(prepare.toString()));

    assertThat(prepared.at("/stream/documentRef/graphAddressId").asText())
        .isEqualTo("parse" + PrepareService.PRE_MAPPED_SUFFIX);
    assertThat(prepared.at("/stream/documentRef").has("keep")).as("CACHE: keep=false").isFalse();
    assertThat(
            prepared
                .at(
                    "/stream/metadata/contextParams/"
                        + PrepareService.PRE_MAPPED_PARAM_PREFIX
                        + "parse")
                .asText())
        .isEqualTo("parse.pre");
    // Dispatch tells the gateway the staging of the node's own address, not of the CACHE copy read.
    ObjectNode dispatch =
        payload("parse")
            .put("graphId", "g4")
            .put("moduleId", "parser")
            .put("taskToken", "tok")
            .put("workUnitId", "wu-1");
    dispatch.set("stream", prepared.get("stream"));
    h.dispatch.handle(dispatch.toString());
    var work = h.nextDispatch();
    // Counted once, by module service: what wakes a gateway scaled to zero (decision 1654).
    assertThat(h.metrics.records(PlatformMetric.MODULE_DISPATCHES))
        .singleElement()
        .satisfies(
            m -> {
              assertThat(m.value()).isEqualTo(1);
              assertThat(m.dimensions())
                  .containsEntry(PlatformMetric.MODULE_SERVICE_DIMENSION, "parser");
            });
    assertThat(work.hasResultKeep()).isTrue();
    assertThat(work.getResultKeep()).as("the node's input copy is PERSIST").isTrue();
    // The module answers with a result the gateway saved at the node's address, with that flag.
    DocumentReference result = h.staging.stage(stored, "acme", "g4", "parse", work.getResultKeep());
    PipeStream fromModule = work.getStream().toBuilder().setDocumentRef(result).build();
    ObjectNode complete = (ObjectNode) HopHarness.parse(completePayload("parse", fromModule));
    complete.put("graphId", "g4");

    JsonNode done = HopHarness.parse(h.complete.handle(complete.toString()));

    assertThat(done.get("destinations").toString())
        .as("the markers do not travel on")
        .doesNotContain("preMapped");
    assertThat(h.events.on(CompleteService.RECLAIM_REQUESTS))
        .as("not before the hop settled")
        .isEmpty();
    // The next hop's Prepare runs once Complete's result is recorded: it produces the request.
    ObjectNode next = payload("a").put("graphId", "g4");
    next.set("stream", done.get("destinations").get(0).get("stream"));
    h.prepare.handle(next.toString());
    var requests = h.events.on(CompleteService.RECLAIM_REQUESTS);
    assertThat(requests)
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.key()).isEqualTo("wu-1:pre");
              assertThat(ReclaimRequest.parseFrom(r.value()).getDocumentRef().getGraphAddressId())
                  .isEqualTo("parse.pre");
            });
    var report =
        new ReclaimService(RecordingStaging.store())
            .handle(requests.stream().map(RecordingEventBus.Produced::value).toList());
    assertThat(report.reclaimed()).isEqualTo(1);
    assertThat(
            RecordingStaging.store()
                .getManifest(GetPipeDocManifestRequest.newBuilder().setDocumentRef(result).build())
                .getKeep())
        .as("the node's copy is still PERSIST")
        .isTrue();
    assertThat(h.staging.hydrate(result, Set.of(), false).getDocId())
        .as("the PERSIST copy stays")
        .isEqualTo("p");
  }

  @Test
  void inlineSiblingsShareOneBudgetSoTheSecondDucksToCache() {
    ObjectNode payload =
        (ObjectNode) HopHarness.parse(completePayload("parse", stream(doc("twins", 1100, false))));
    payload.put("graphId", "g4");

    JsonNode out = HopHarness.parse(h.complete.handle(payload.toString()));

    assertThat(out.get("destinationCount").asInt()).isEqualTo(2);
    JsonNode first = out.get("destinations").get(0);
    JsonNode second = out.get("destinations").get(1);
    assertThat(first.get("node").asText()).isEqualTo("a");
    assertThat(first.at("/stream/document/docId").asText()).as("fits alone").isEqualTo("twins");
    assertThat(second.at("/stream/documentRef/graphAddressId").asText()).isEqualTo("b");
    assertThat(second.at("/stream/metadata/contextParams").toString()).contains("staged as CACHE");
    assertThat(first.get("executionName").asText())
        .hasSize(64)
        .isNotEqualTo(second.get("executionName").asText());
  }

  @AfterEach
  void stop() {
    h.close();
  }

  @Test
  void aSmallMemoryBodyTravelsInlineAndIsNeverStaged() {
    JsonNode out =
        HopHarness.parse(
            h.complete.handle(completePayload("parse", stream(doc("small", 10, false)), true)));

    assertThat(out.get("destinationCount").asInt()).isEqualTo(1);
    assertThat(out.get("node").asText()).isEqualTo("index");
    assertThat(out.at("/stream/document/docId").asText()).isEqualTo("small");
    assertThat(out.at("/stream/currentNodeId").asText()).isEqualTo("index");
    assertThat(out.at("/stream/metadata/hopCount").asInt()).isEqualTo(1);
    assertThat(out.get("destinations")).isEmpty();
    assertThat(h.staging.staged).isEmpty();
    // index has no filter: Complete prepared it, and the work unit is index's (decision 1832).
    assertThat(out.get("prepared").asBoolean()).isTrue();
    assertThat(out.get("workUnitId").asText())
        .isEqualTo(
            HopContext.workUnitId(
                new HopIdentity(
                    "g3",
                    1,
                    "c1",
                    "index",
                    "arn:aws:states:us-east-1:000000000000:execution:protomolt-test-g3:e1"),
                PipeStream.newBuilder()
                    .setMetadata(StreamMetadata.newBuilder().setHopCount(1))
                    .build()));
  }

  @Test
  void aCompleteOfAVersionCompiledWithoutThePreparedBranchPreparesNothing() {
    JsonNode out =
        HopHarness.parse(
            h.complete.handle(completePayload("parse", stream(doc("older", 10, false)))));

    assertThat(out.get("node").asText()).isEqualTo("index");
    assertThat(out.get("prepared").asBoolean())
        .as("its routing choice would send a prepared stream through index's Prepare")
        .isFalse();
    assertThat(out.get("workUnitId").asText()).isEqualTo("wu-1");
  }

  @Test
  void aCompleteRoutingToANodeWithAFilterLeavesItsPreparationToThatNode() throws Exception {
    PipelineGraph graph =
        PipelineGraph.newBuilder()
            .setGraphId("g6")
            .setClusterId("c1")
            .setAccountId("acme")
            .addNodes(intake("in", "ds-1"))
            .addNodes(processor("parse", "parser"))
            .addNodes(
                sink("index", "plan-1").toBuilder()
                    .addFilterConditions(
                        FilterCondition.newBuilder()
                            .setCondition("document.search_metadata.language == 'en'")
                            .setAction(FilterAction.FILTER_ACTION_SKIP)))
            .addEdges(edge("e1", "in", "parse"))
            .addEdges(
                edge("e2", "parse", "index").toBuilder()
                    .setTransportType(TransportType.TRANSPORT_TYPE_MEMORY))
            .build();
    h.admin.create(graph, OptionalLong.empty(), "ann");
    ObjectNode payload = payload("parse").put("graphId", "g6");
    payload.put("outcome", "CONTINUE");
    payload.put("workUnitId", "wu-1");
    payload.put("prepareNext", true);
    payload.set("stream", tree(stream(doc("filtered", 10, false))));

    JsonNode out = HopHarness.parse(h.complete.handle(payload.toString()));

    assertThat(out.get("node").asText()).isEqualTo("index");
    assertThat(out.get("prepared").asBoolean()).as("its filter's answer needs a choice").isFalse();
    assertThat(out.get("workUnitId").asText()).as("the hop's own work unit").isEqualTo("wu-1");
  }

  @Test
  void eachHopReportsItsPayloadHistoryAndLatencyByGraphAndNode() {
    PipeStream dispatched =
        stream(doc("measured", 10, false)).toBuilder()
            .setMetadata(
                StreamMetadata.newBuilder()
                    .setAccountId("acme")
                    .setHopCount(2)
                    .setDispatchedAt(
                        com.google.protobuf.Timestamp.newBuilder()
                            .setSeconds(h.clock.instant().minusMillis(1500).getEpochSecond())
                            .setNanos(h.clock.instant().minusMillis(1500).getNano())))
            .build();
    String answer = h.complete.handle(completePayload("parse", dispatched));

    var byNode = java.util.Map.of("Environment", "test", "Graph", "g3", "Node", "parse");
    assertThat(h.metrics.records(PlatformMetric.HOP_PAYLOAD_BYTES))
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.value())
                  .isEqualTo(answer.getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
              assertThat(r.value()).isLessThan(PlatformMetric.STATE_PAYLOAD_LIMIT_BYTES);
              assertThat(r.dimensions()).containsExactlyInAnyOrderEntriesOf(byNode);
            });
    // The third hop of the execution: the admission states and three hops' worth of events.
    assertThat(h.metrics.records(PlatformMetric.HOP_HISTORY_EVENTS))
        .singleElement()
        .satisfies(
            r ->
                assertThat(r.value())
                    .isEqualTo(HopMetrics.EVENTS_BEFORE_FIRST_HOP + 3 * HopMetrics.EVENTS_PER_HOP));
    assertThat(h.metrics.records(PlatformMetric.HOP_LATENCY))
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.value()).isEqualTo(1500);
              assertThat(r.dimensions()).containsExactlyInAnyOrderEntriesOf(byNode);
            });

    h.prepare.handle(payload("parse").set("stream", tree(dispatched)).toString());
    assertThat(h.metrics.records(PlatformMetric.HOP_PAYLOAD_BYTES)).hasSize(2);
  }

  @Test
  void aMemoryBodyOverTheLimitDucksToCacheWithTheReasonRecorded() {
    JsonNode out =
        HopHarness.parse(
            h.complete.handle(completePayload("parse", stream(doc("big", 5000, false)))));

    assertThat(out.at("/stream/documentRef/docId").asText()).isEqualTo("big");
    // keep=false is the proto default, which protobuf JSON leaves out.
    assertThat(out.at("/stream/documentRef").has("keep")).isFalse();
    assertThat(out.at("/stream").has("document")).isFalse();
    assertThat(out.at("/stream/documentRef/graphAddressId").asText()).isEqualTo("index");
    assertThat(
            out.at(
                    "/stream/metadata/contextParams/"
                        + CompleteService.MEMORY_DUCK_PREFIX.replace("/", "~1")
                        + "index")
                .asText())
        .contains("of the inline limit of 2048 are left")
        .contains("staged as CACHE");
    assertThat(h.staging.staged)
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.nodeId()).isEqualTo("index");
              assertThat(s.keep()).isFalse();
            });
  }

  /**
   * The inline budget is the whole MEMORY bound: a copy whose stream JSON is exactly the budget
   * rides inline, one byte more ducks to CACHE, and a right-to-be-forgotten copy one byte over is
   * rejected. The body size that lands exactly on the bound is measured from a small copy, since
   * every body character is one byte of stream JSON.
   */
  @Test
  void theInlineBudgetIsExactlyTheBoundOnMemoryExposure() throws Exception {
    int atBound = bodyCharsAtTheBound("edge", false);

    JsonNode fits =
        HopHarness.parse(
            h.complete.handle(completePayload("parse", stream(doc("edge", atBound, false)))));
    assertThat(fits.at("/stream/document/docId").asText())
        .as("exactly the budget")
        .isEqualTo("edge");

    JsonNode over =
        HopHarness.parse(
            h.complete.handle(completePayload("parse", stream(doc("edge", atBound + 1, false)))));
    assertThat(over.at("/stream").has("document")).isFalse();
    assertThat(over.at("/stream/metadata/contextParams").toString())
        .contains("its stream is " + (LIMIT + 1) + " bytes and " + LIMIT + " of the inline limit")
        .contains("staged as CACHE");
    assertThat(h.staging.staged)
        .singleElement()
        .satisfies(s -> assertThat(s.keep()).as("never PERSIST").isFalse());

    assertThat(
            HopHarness.parse(
                    h.complete.handle(
                        completePayload(
                            "parse", stream(doc("rtbf", bodyCharsAtTheBound("rtbf", true), true)))))
                .at("/stream/document/docId")
                .asText())
        .isEqualTo("rtbf");
    assertThatThrownBy(
            () ->
                h.complete.handle(
                    completePayload(
                        "parse", stream(doc("rtbf", bodyCharsAtTheBound("rtbf", true) + 1, true)))))
        .isInstanceOfSatisfying(
            HopFailure.class, e -> assertThat(e.errorType()).isEqualTo(HopFailure.RTBF_TOO_LARGE));
    assertThat(h.staging.staged).as("the RTBF copy was never written").hasSize(1);
  }

  /** The body length whose inline copy out of 'parse' is exactly the budget. */
  private int bodyCharsAtTheBound(String docId, boolean rightToBeForgotten) throws Exception {
    JsonNode small =
        HopHarness.parse(
            h.complete.handle(
                completePayload("parse", stream(doc(docId, 10, rightToBeForgotten)))));
    PipeStream.Builder measured = PipeStream.newBuilder();
    com.google.protobuf.util.JsonFormat.parser().merge(small.get("stream").toString(), measured);
    // History is added after staging, so it is not part of what the budget measured.
    measured.getMetadataBuilder().clearHistory();
    return 10 + LIMIT - HopJson.print(HopJson.tree(measured.build())).length();
  }

  @Test
  void aRightToBeForgottenBodyOverTheLimitIsRefusedAndNeverStored() {
    assertThatThrownBy(
            () -> h.complete.handle(completePayload("parse", stream(doc("rtbf", 5000, true)))))
        .isInstanceOfSatisfying(
            HopFailure.class, e -> assertThat(e.errorType()).isEqualTo(HopFailure.RTBF_TOO_LARGE))
        .hasMessageContaining("right-to-be-forgotten")
        .hasMessageContaining("never stored");
    assertThat(h.staging.staged).isEmpty();
  }

  @Test
  void aRightToBeForgottenDocumentTakesAPersistEdgeInline() {
    ObjectNode payload =
        (ObjectNode) HopHarness.parse(completePayload("in", stream(doc("rtbf", 10, true))));
    payload.put("outcome", "INTAKE");
    payload.remove("workUnitId");

    JsonNode out = HopHarness.parse(h.complete.handle(payload.toString()));
    assertThat(out.at("/stream/document/docId").asText()).isEqualTo("rtbf");
    assertThat(out.get("workUnitId").asText()).hasSize(64);
    assertThat(h.staging.staged).isEmpty();
  }

  @Test
  void prepareReadsNoBodyForANodeWithoutFilterOrPreMappingsAndNamesTheHopDeterministically() {
    DocumentReference ref = h.staging.stage(doc("d", 10, false), "acme", "g3", "parse", true);
    PipeStream byRef = PipeStream.newBuilder().setStreamId("s").setDocumentRef(ref).build();
    String payload = payload("parse").set("stream", tree(byRef)).toString();

    JsonNode first = HopHarness.parse(h.prepare.handle(payload));
    JsonNode again = HopHarness.parse(h.prepare.handle(payload));

    assertThat(first.get("action").asText()).isEqualTo("RUN");
    assertThat(first.at("/stream/documentRef/docId").asText())
        .as("unchanged body stays a reference")
        .isEqualTo("d");
    assertThat(h.staging.blobRequests)
        .as("nothing here reads the body; the module, which needs the blobs, hydrates them itself")
        .isEmpty();
    assertThat(again.get("workUnitId").asText()).isEqualTo(first.get("workUnitId").asText());
    PipeStream nextHop =
        byRef.toBuilder().setMetadata(StreamMetadata.newBuilder().setHopCount(5)).build();
    JsonNode later =
        HopHarness.parse(
            h.prepare.handle(payload("parse").set("stream", tree(nextHop)).toString()));
    assertThat(later.get("workUnitId").asText()).isNotEqualTo(first.get("workUnitId").asText());
  }

  @Test
  void aDeadLetterWithSaveOnErrorPersistsTheFailingBodyFirstButNeverAForgettableOne()
      throws Exception {
    JsonNode out =
        HopHarness.parse(
            h.dlq.handle(dlqPayload(doc("failing", 10, false), true, true).toString()));
    String topic = "pipestream.c1.g3.parse.dlq";
    assertThat(h.events.on(topic))
        .singleElement()
        .satisfies(
            p -> {
              DlqMessage m = DlqMessage.parseFrom(p.value());
              assertThat(m.getDlqId()).isEqualTo(out.get("dlqId").asText());
              assertThat(m.getSavedBodyRef().getKeep()).isTrue();
              assertThat(m.getSavedBodyRef().getDocId()).isEqualTo("failing");
              assertThat(m.getError().getCode()).isEqualTo("States.TaskFailed");
              assertThat(m.getWorkUnitId()).isEqualTo("wu-9");
            });
    assertThat(h.staging.staged).extracting(RecordingStaging.Staged::keep).containsExactly(true);
    // Again for the same hop: the same dlq id, so a retried DLQ write converges.
    JsonNode again =
        HopHarness.parse(
            h.dlq.handle(dlqPayload(doc("failing", 10, false), true, true).toString()));
    assertThat(again.get("dlqId").asText()).isEqualTo(out.get("dlqId").asText());

    h.dlq.handle(dlqPayload(doc("forgettable", 10, true), true, false).toString());
    assertThat(h.staging.staged).as("never stored").hasSize(2);
    assertThat(h.events.on(topic)).as("publish=false writes no record").hasSize(2);
    // The dead-letter alarm's metric counts what was published, not what was kept.
    assertThat(h.metrics.records(PlatformMetric.DEAD_LETTERS_PUBLISHED))
        .hasSize(2)
        .allSatisfy(
            r -> {
              assertThat(r.value()).isEqualTo(1);
              assertThat(r.dimensions()).containsEntry("Environment", "test");
            });
  }

  @Test
  void badPayloadsAreRefusedNamingTheField() {
    assertThatThrownBy(() -> h.prepare.handle("[]")).hasMessage("payload must be a JSON object");
    assertThatThrownBy(() -> h.prepare.handle("{not json"))
        .hasMessageStartingWith("payload is not JSON");
    ObjectNode noGraph = payload("parse");
    noGraph.remove("graphId");
    assertThatThrownBy(() -> h.prepare.handle(noGraph.toString()))
        .hasMessage("payload field 'graphId' must be a non-blank string");
    assertThatThrownBy(() -> h.prepare.handle(payload("parse").put("graphVersion", 0).toString()))
        .hasMessage("payload field 'graphVersion' must be a positive integer");
    assertThatThrownBy(() -> h.prepare.handle(payload("parse").put("stream", "x").toString()))
        .hasMessage("payload field 'stream' must be a PipeStream object");
    ObjectNode unknownField = payload("parse");
    unknownField.putObject("stream").put("noSuchField", 1);
    assertThatThrownBy(() -> h.prepare.handle(unknownField.toString()))
        .hasMessageStartingWith("payload field 'stream' is not a valid PipeStream");
    ObjectNode badOutcome =
        (ObjectNode) HopHarness.parse(completePayload("parse", stream(doc("d", 1, false))));
    badOutcome.put("outcome", "MAYBE");
    assertThatThrownBy(() -> h.complete.handle(badOutcome.toString()))
        .hasMessageContaining("payload field 'outcome' must be one of")
        .hasMessageContaining("'MAYBE'");
    ObjectNode wrongModule =
        payload("parse").put("moduleId", "chunker").put("taskToken", "t").put("workUnitId", "w");
    wrongModule.set("stream", tree(stream(doc("d", 1, false))));
    assertThatThrownBy(() -> h.dispatch.handle(wrongModule.toString()))
        .hasMessageContaining("payload field 'moduleId' is 'chunker' but node 'parse'");
    assertThatThrownBy(
            () ->
                h.prepare.handle(
                    payload("ghost").set("stream", tree(stream(doc("d", 1, false)))).toString()))
        .isInstanceOfSatisfying(
            HopFailure.class,
            e -> assertThat(e.errorType()).isEqualTo(OrphanedPinFailure.class.getName()));
    assertThat(h.events.produced).as("nothing produced for refused payloads").isEmpty();
    assertThat(h.metrics.records(PlatformMetric.MODULE_DISPATCHES))
        .as("a refused dispatch wakes nothing")
        .isEmpty();
  }

  private static ObjectNode payload(String node) {
    ObjectNode p = HopHarness.JSON.createObjectNode();
    p.put("graphId", "g3");
    p.put("graphVersion", 1);
    p.put("clusterId", "c1");
    p.put("nodeId", node);
    p.put("executionId", "arn:aws:states:us-east-1:000000000000:execution:protomolt-test-g3:e1");
    return p;
  }

  private static ObjectNode dlqPayload(PipeDoc doc, boolean saveOnError, boolean publish) {
    ObjectNode p = payload("parse");
    p.put("topic", "pipestream.c1.g3.parse.dlq");
    p.put("publish", publish);
    p.put("saveOnError", saveOnError);
    p.put("maxReprocessCount", 3);
    ObjectNode failed = p.putObject("failed");
    failed.put("node", "parse");
    failed.put("workUnitId", "wu-9");
    failed.set("stream", tree(stream(doc)));
    failed.putObject("error").put("Error", "States.TaskFailed").put("Cause", "boom");
    return p;
  }

  private static String completePayload(String node, PipeStream stream) {
    return completePayload(node, stream, false);
  }

  /** @param prepareNext whether the machine has the prepared branch (decision 1832) */
  private static String completePayload(String node, PipeStream stream, boolean prepareNext) {
    ObjectNode p = payload(node);
    p.put("outcome", "CONTINUE");
    p.put("workUnitId", "wu-1");
    p.set("stream", tree(stream));
    if (prepareNext) {
      p.put("prepareNext", true);
    }
    return p.toString();
  }

  private static JsonNode tree(PipeStream stream) {
    try {
      return HopHarness.tree(stream);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    }
  }

  private static PipeStream stream(PipeDoc doc) {
    return PipeStream.newBuilder()
        .setStreamId("s-" + doc.getDocId())
        .setDocument(doc)
        .setMetadata(StreamMetadata.newBuilder().setAccountId("acme"))
        .build();
  }

  private static PipeDoc doc(String id, int bodyChars, boolean rightToBeForgotten) {
    return PipeDoc.newBuilder()
        .setDocId(id)
        .setSearchMetadata(
            SearchMetadata.newBuilder().setLanguage("en").setBody("x".repeat(bodyChars)))
        .setOwnership(OwnershipContext.newBuilder().setRightToBeForgotten(rightToBeForgotten))
        .build();
  }
}
