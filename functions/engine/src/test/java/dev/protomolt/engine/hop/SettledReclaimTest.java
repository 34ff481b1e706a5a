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
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.TransportType;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.data.v1.StreamMetadata;
import dev.protomolt.proto.events.v1.ReclaimRequest;
import dev.protomolt.repository.PipeDocStoreException;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * When a consumed CACHE input is reclaimed, and which copy (decisions 0816, 0817), on the real
 * document store and the reclaim consumer: a hop with destinations hands its reclaim requests to
 * the next engine Lambda of the execution, which runs only after Step Functions recorded this
 * Complete's result, so a retried Complete still reads its input; and a request deletes only the
 * exact copy it names, never a newer one saved at the same address.
 */
class SettledReclaimTest {

  private HopHarness h;
  private final ReclaimService reclaimer = new ReclaimService(RecordingStaging.store());

  @BeforeEach
  void start() {
    h = new HopHarness();
    h.admin.create(
        PipelineGraph.newBuilder()
            .setGraphId("g-rs")
            .setClusterId("c1")
            .setAccountId("acme")
            .setName("cache then persist")
            .addNodes(intake("in", "ds-1"))
            .addNodes(processor("parse", "parser"))
            .addNodes(sink("index", "plan-1"))
            .addEdges(
                edge("e1", "in", "parse").toBuilder()
                    .setTransportType(TransportType.TRANSPORT_TYPE_CACHE))
            .addEdges(edge("e2", "parse", "index"))
            .build(),
        OptionalLong.empty(),
        "ann");
  }

  @AfterEach
  void stop() {
    h.close();
  }

  @Test
  void aCompleteRetriedAfterTheReclaimConsumerRanStillReadsItsInputAndConverges() {
    DocumentReference input =
        h.staging.stage(doc("rs-1", "cached"), "acme", "g-rs", "parse", false);
    String payload = completePayload(input);

    JsonNode first = HopHarness.parse(h.complete.handle(payload));
    consumeReclaims();
    JsonNode retried = HopHarness.parse(h.complete.handle(payload));

    assertThat(retried.get("node").asText()).isEqualTo("index");
    assertThat(retried.at("/stream/documentRef")).isEqualTo(first.at("/stream/documentRef"));
    assertThat(retried.at("/stream/metadata/contextParams"))
        .isEqualTo(first.at("/stream/metadata/contextParams"));
    assertThat(h.staging.hydrate(input, Set.of(), false).getDocId())
        .as("not reclaimed before the hop settled")
        .isEqualTo("rs-1");

    // The next hop's Prepare runs only once Complete's result is in the execution: it asks for the
    // reclaim.
    JsonNode prepared =
        HopHarness.parse(
            h.prepare.handle(preparePayload("index", retried.get("stream")).toString()));
    assertThat(prepared.at("/stream/metadata/contextParams").toString())
        .as("the request does not travel on")
        .doesNotContain(SettledReclaims.PARAM_PREFIX);
    ReclaimService.Report report = consumeReclaims();

    assertThat(report.reclaimed()).isEqualTo(1);
    assertThatThrownBy(() -> h.staging.hydrate(input, Set.of(), false))
        .isInstanceOf(PipeDocStoreException.DocumentNotFound.class);
    DocumentReference persisted = HopJson.stream(retried, "stream").getDocumentRef();
    assertThat(persisted.getKeep()).isTrue();
    assertThat(h.staging.hydrate(persisted, Set.of(), false).getDocId())
        .as("PERSIST kept")
        .isEqualTo("rs-1");
  }

  @Test
  void aLateRedeliveredReclaimLeavesANewerCopyAtTheSameAddressAlone() {
    DocumentReference input =
        h.staging.stage(doc("rs-2", "first visit"), "acme", "g-rs", "parse", false);
    JsonNode done = HopHarness.parse(h.complete.handle(completePayload(input)));
    h.prepare.handle(preparePayload("index", done.get("stream")).toString());
    List<byte[]> late = reclaimValues();
    assertThat(late)
        .singleElement()
        .satisfies(
            v -> {
              ReclaimRequest r = ReclaimRequest.parseFrom(v);
              assertThat(r.getExpectedChecksum()).hasSize(64);
              assertThat(r.hasExpectedUpdatedAt()).isTrue();
            });
    assertThat(reclaimer.handle(late).reclaimed()).isEqualTo(1);

    // A second visit of the same document stages a newer CACHE copy at the same address ...
    DocumentReference newer =
        h.staging.stage(doc("rs-2", "second visit"), "acme", "g-rs", "parse", false);
    // ... and the first visit's request is redelivered very late.
    ReclaimService.Report report = reclaimer.handle(late);

    assertThat(report.reclaimed()).isZero();
    assertThat(report.superseded()).isEqualTo(1);
    assertThat(h.staging.hydrate(newer, Set.of(), false).getSearchMetadata().getBody())
        .isEqualTo("second visit");
  }

  @Test
  void aTerminalHopAsksForItsReclaimItselfBecauseNoLambdaFollowsIt() {
    DocumentReference input = h.staging.stage(doc("rs-3", "last"), "acme", "g-rs", "index", false);
    ObjectNode p = preparePayload("index", tree(streamOf(input)));
    p.put("outcome", "CONTINUE").put("workUnitId", "wu-t");

    JsonNode out = HopHarness.parse(h.complete.handle(p.toString()));

    assertThat(out.get("destinationCount").asInt()).isZero();
    assertThat(consumeReclaims().reclaimed()).isEqualTo(1);
    assertThatThrownBy(() -> h.staging.hydrate(input, Set.of(), false))
        .isInstanceOf(PipeDocStoreException.DocumentNotFound.class);
  }

  private ReclaimService.Report consumeReclaims() {
    List<byte[]> values = reclaimValues();
    h.events.produced.removeIf(p -> p.topic().equals(CompleteService.RECLAIM_REQUESTS));
    return reclaimer.handle(values);
  }

  private List<byte[]> reclaimValues() {
    return h.events.on(CompleteService.RECLAIM_REQUESTS).stream()
        .map(RecordingEventBus.Produced::value)
        .toList();
  }

  private static String completePayload(DocumentReference input) {
    ObjectNode p = preparePayload("parse", tree(streamOf(input)));
    p.put("outcome", "CONTINUE");
    p.put("workUnitId", "wu-rs");
    return p.toString();
  }

  private static ObjectNode preparePayload(String node, JsonNode stream) {
    ObjectNode p = HopHarness.JSON.createObjectNode();
    p.put("graphId", "g-rs");
    p.put("graphVersion", 1);
    p.put("clusterId", "c1");
    p.put("nodeId", node);
    p.put("executionId", "arn:aws:states:us-east-1:000000000000:execution:protomolt-test-g-rs:e1");
    p.set("stream", stream);
    return p;
  }

  private static PipeStream streamOf(DocumentReference ref) {
    return PipeStream.newBuilder()
        .setStreamId("s-" + ref.getDocId())
        .setDocumentRef(ref)
        .setMetadata(StreamMetadata.newBuilder().setAccountId("acme"))
        .build();
  }

  private static JsonNode tree(PipeStream stream) {
    try {
      return HopHarness.tree(stream);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    }
  }

  private static PipeDoc doc(String id, String body) {
    return PipeDoc.newBuilder()
        .setDocId(id)
        .setSearchMetadata(SearchMetadata.newBuilder().setTitle("t").setBody(body))
        .build();
  }
}
