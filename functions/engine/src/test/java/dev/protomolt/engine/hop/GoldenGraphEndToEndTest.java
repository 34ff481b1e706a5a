package dev.protomolt.engine.hop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.protomolt.core.graph.GraphAdminException;
import dev.protomolt.core.orchestration.AdmissionLog.AdmissionRecord;
import dev.protomolt.core.orchestration.EventBus;
import dev.protomolt.engine.admission.Intake;
import dev.protomolt.engine.reclaim.ReclaimService;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.OwnershipContext;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.data.v1.StepExecutionRecord;
import dev.protomolt.proto.data.v1.StepStatus;
import dev.protomolt.proto.module.v1.WorkDispatch;
import dev.protomolt.repository.PipeDocStoreException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * The golden graphs of {@code statemachines/golden} (the same files the compiler's golden tests
 * compile), activated on the local Step Functions runtime and run end to end with the real hop
 * services and document store; the test plays each module by completing its task token through
 * {@code SfnClient}.
 */
class GoldenGraphEndToEndTest {

  private static final Path GOLDEN = Path.of("..", "..", "statemachines", "golden");

  private HopHarness h;

  @AfterEach
  void stop() {
    if (h != null) {
      h.close();
    }
  }

  @Test
  void conditionalRoutingTakesTheFirstTrueEdgeByPriorityAndReclaimsOnlyCacheInputs()
      throws Exception {
    h = new HopHarness();
    activate("conditional-routes");

    // English and a PDF: both conditions hold; 'english' (priority 10) wins over 'pdf' (20).
    String english = admit("acme-crawl", doc("en-pdf", "en", "application/pdf"));
    assertThat(runModules(english, "parser", "chunker-en", "index")).isEqualTo("SINK_REACHED");
    // Not English, a PDF: 'pdf' routes over the CACHE edge.
    String pdf = admit("acme-crawl", doc("fr-pdf", "fr", "application/pdf"));
    WorkDispatch parser = next("parser");
    h.succeed(parser, parser.getStream());
    WorkDispatch chunker = next("chunker-pdf");
    DocumentReference cacheInput = chunker.getStream().getDocumentRef();
    assertThat(cacheInput.getKeep()).as("CACHE edge: keep=false").isFalse();
    h.succeed(chunker, chunker.getStream());
    WorkDispatch index = next("index");
    h.succeed(index, index.getStream());
    assertThat(disposition(pdf)).isEqualTo("SINK_REACHED");
    // Neither: the unconditional fallback (priority 100).
    String other = admit("acme-crawl", doc("fr-html", "fr", "text/html"));
    assertThat(runModules(other, "parser", "chunker-default", "index")).isEqualTo("SINK_REACHED");

    // The reclaim consumer, fed the requests Complete produced, deletes the consumed CACHE input
    // only.
    List<byte[]> requests =
        h.events.on(CompleteService.RECLAIM_REQUESTS).stream()
            .map(RecordingEventBus.Produced::value)
            .toList();
    ReclaimService.Report report = new ReclaimService(RecordingStaging.store()).handle(requests);
    assertThat(report).isEqualTo(new ReclaimService.Report(1, 0, 0, List.of()));
    assertThatThrownBy(() -> h.staging.hydrate(cacheInput, Set.of(), false))
        .isInstanceOf(PipeDocStoreException.DocumentNotFound.class);
    assertThat(parser.getStream().getDocumentRef().getKeep()).isTrue();
    assertThat(h.staging.hydrate(parser.getStream().getDocumentRef(), Set.of(), false).getDocId())
        .as("PERSIST copies are kept")
        .isEqualTo("fr-pdf");
    assertThat(h.staging.hydrate(index.getStream().getDocumentRef(), Set.of(), false).getDocId())
        .isEqualTo("fr-pdf");
  }

  @Test
  void aMemoryBodyOverTheLimitDucksToCacheWithTheReasonRecorded() throws Exception {
    h = new HopHarness(2048);
    activate("fan-out-mixed-edges");
    PipeDoc big =
        doc("big", "en", "text/plain").toBuilder()
            .setSearchMetadata(
                SearchMetadata.newBuilder().setLanguage("en").setBody("x".repeat(5000)))
            .build();
    String execution = admit("acme-uploads", big);
    WorkDispatch parser = next("parser");
    h.succeed(parser, parser.getStream());
    assertThat(disposition(execution)).isEqualTo("FANNED_OUT");

    Map<String, WorkDispatch> children = new HashMap<>();
    for (int i = 0; i < 3; i++) {
      WorkDispatch child = h.nextDispatch();
      children.put(child.getNodeId(), child);
    }
    assertThat(children).containsOnlyKeys("archive", "chunker-small", "summarizer");
    PipeStream summarizer = children.get("summarizer").getStream();
    assertThat(summarizer.hasDocumentRef()).as("the MEMORY edge ducked to a stored copy").isTrue();
    assertThat(summarizer.getDocumentRef().getKeep()).as("CACHE, never PERSIST").isFalse();
    assertThat(summarizer.getMetadata().getContextParamsMap())
        .hasEntrySatisfying(
            CompleteService.MEMORY_DUCK_PREFIX + "summarizer",
            reason ->
                assertThat(reason).contains("MEMORY edge 'summarize'").contains("staged as CACHE"));
    assertThat(children.get("archive").getStream().getDocumentRef().getKeep()).isTrue();
    assertThat(children.get("chunker-small").getStream().getDocumentRef().getKeep()).isFalse();
    // Siblings never share a body: three copies at three addresses.
    assertThat(
            children.values().stream().map(c -> c.getStream().getDocumentRef().getGraphAddressId()))
        .containsExactlyInAnyOrder("archive", "chunker-small", "summarizer");
  }

  @Test
  void aRightToBeForgottenBodyThatOutgrowsTheLimitIsRejectedAndNeverStored() throws Exception {
    h = new HopHarness(2048);
    activate("linear");
    PipeDoc forgettable =
        doc("rtbf", "en", "text/plain").toBuilder()
            .setOwnership(
                OwnershipContext.newBuilder().setAccountId("acme").setRightToBeForgotten(true))
            .build();
    String execution = admit("acme-uploads", forgettable);
    WorkDispatch parser = next("parser");
    assertThat(parser.getStream().hasDocument())
        .as("RTBF forces MEMORY even on a PERSIST edge")
        .isTrue();
    PipeDoc grown =
        forgettable.toBuilder()
            .setSearchMetadata(
                forgettable.getSearchMetadata().toBuilder().setBody("x".repeat(5000)))
            .build();
    h.succeed(parser, parser.getStream().toBuilder().setDocument(grown).build());

    assertThat(disposition(execution)).isEqualTo("REJECTED");
    StepExecutionRecord rejected = steps().getLast();
    assertThat(rejected.getStatus()).isEqualTo(StepStatus.STEP_STATUS_REJECTED);
    assertThat(rejected.getError().getCode()).isEqualTo(RtbfTooLargeFailure.class.getName());
    assertThat(h.staging.staged).as("never written down").isEmpty();
    assertThat(h.events.produced).noneMatch(p -> p.topic().endsWith(".dlq"));
  }

  @Test
  void rollbackMovesTheAliasBackAndDeleteIsRefusedWhileAnExecutionIsPinned() throws Exception {
    h = new HopHarness();
    PipelineGraph graph = golden("linear");
    h.admin.create(graph, OptionalLong.empty(), "ann");
    String v1 = h.activation.activate(graph.getGraphId(), "prod", 1).versionArn();
    h.admin.create(graph, OptionalLong.empty(), "ann");
    String v2 = h.activation.activate(graph.getGraphId(), "prod", 2).versionArn();
    String onTwo = admit("acme-uploads", doc("d-2", "en", "text/plain"));
    WorkDispatch parser = next("parser");
    assertThat(parser.getGraphVersion()).isEqualTo(2);

    // Rollback: the alias moves back, so the next document runs version 1.
    h.activation.activate(graph.getGraphId(), "prod", 1);
    assertThatThrownBy(() -> h.admin.delete(graph.getGraphId(), "prod", 2))
        .isInstanceOfSatisfying(
            GraphAdminException.class,
            e -> assertThat(e.reason()).isEqualTo(GraphAdminException.Reason.FAILED_PRECONDITION))
        .hasMessageContaining(
            "version 2 (state machine version " + v2 + ") has 1 running execution(s)");
    h.succeed(parser, parser.getStream());
    for (String node : List.of("chunker", "embedder", "opensearch-sink")) {
      WorkDispatch work = next(node);
      assertThat(work.getGraphVersion()).as("still pinned to version 2").isEqualTo(2);
      h.succeed(work, work.getStream());
    }
    assertThat(h.awaitClosed(onTwo).stateMachineVersionArn()).isEqualTo(v2);
    String onOne = admit("acme-uploads", doc("d-1", "en", "text/plain"));
    assertThat(h.sfn.describeExecution(b -> b.executionArn(onOne)).stateMachineVersionArn())
        .isEqualTo(v1);

    h.admin.delete(graph.getGraphId(), "prod", 2);
    assertThat(h.store.get(graph.getGraphId(), 2)).as("drained, then deleted").isEmpty();
  }

  // ---- helpers ---------------------------------------------------------------------------

  private static PipelineGraph golden(String name) throws IOException {
    PipelineGraph.Builder graph = PipelineGraph.newBuilder();
    JsonFormat.parser().merge(Files.readString(GOLDEN.resolve(name).resolve("graph.json")), graph);
    // The store numbers versions itself.
    return graph.clearVersion().build();
  }

  private void activate(String name) throws IOException {
    PipelineGraph graph = golden(name);
    h.admin.create(graph, OptionalLong.empty(), "ann");
    h.activation.activate(graph.getGraphId(), graph.getClusterId(), 1);
  }

  private String admit(String datasource, PipeDoc doc) {
    List<AdmissionRecord> admitted =
        h.admission.admit(
            new Intake(
                "acme",
                datasource,
                doc.getDocId(),
                PipeStream.newBuilder()
                    .setStreamId("s-" + doc.getDocId())
                    .setDocument(doc)
                    .build()));
    assertThat(admitted).singleElement().satisfies(r -> assertThat(r.executionArn()).isNotEmpty());
    return admitted.getFirst().executionArn();
  }

  /** Plays each named module in turn (the document unchanged) and returns the final disposition. */
  private String runModules(String execution, String... nodes) throws Exception {
    for (String node : nodes) {
      WorkDispatch work = next(node);
      h.succeed(work, work.getStream());
    }
    return disposition(execution);
  }

  private WorkDispatch next(String node) throws Exception {
    WorkDispatch work = h.nextDispatch();
    assertThat(work.getNodeId()).as("the next hop").isEqualTo(node);
    return work;
  }

  private String disposition(String execution) throws InterruptedException {
    DescribeExecutionResponse done = h.awaitClosed(execution);
    assertThat(done.status()).as(String.valueOf(done.cause())).isEqualTo(ExecutionStatus.SUCCEEDED);
    return HopHarness.parse(done.output()).get("disposition").asText();
  }

  private List<StepExecutionRecord> steps() {
    return h.events.on(EventBus.PIPELINE_EVENTS).stream()
        .map(
            p -> {
              try {
                return StepExecutionRecord.parseFrom(p.value());
              } catch (InvalidProtocolBufferException e) {
                throw new IllegalStateException(e);
              }
            })
        .toList();
  }

  private static PipeDoc doc(String id, String language, String mimeType) {
    return PipeDoc.newBuilder()
        .setDocId(id)
        .setSearchMetadata(
            SearchMetadata.newBuilder().setLanguage(language).setSourceMimeType(mimeType))
        .build();
  }
}
