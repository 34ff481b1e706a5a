package dev.protomolt.engine.hop;

import static dev.protomolt.core.graph.SampleGraphs.edge;
import static dev.protomolt.core.graph.SampleGraphs.linear;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import dev.protomolt.core.orchestration.AdmissionLog.AdmissionRecord;
import dev.protomolt.engine.admission.Intake;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.Memoization;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.TransportType;
import dev.protomolt.proto.data.v1.Blob;
import dev.protomolt.proto.data.v1.BlobBag;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.FileStorageReference;
import dev.protomolt.proto.data.v1.OwnershipContext;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.data.v1.StepExecutionRecord;
import dev.protomolt.proto.data.v1.StepStatus;
import dev.protomolt.proto.module.v1.WorkDispatch;
import dev.protomolt.proto.repository.v1.DeletePipeDocRequest;
import dev.protomolt.proto.repository.v1.PipeDocManifest;
import dev.protomolt.repository.memo.PostgresHopMemos;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Hop memoization (decision 1812) end to end on the local Step Functions runtime with the real
 * store on S3Proxy and embedded PostgreSQL: the test plays each module and saves its result at
 * the hop's address as the gateway does, so what a replay reuses is what a module really stored.
 */
class MemoizationTest {

  /**
   * Titles the document and, as the gateway hands a parser its upload, turns a blob that points at
   * a stored object into one carrying the bytes inline: the parser's output holds them, its input
   * (the intake copy) only the pointer.
   */
  private static final UnaryOperator<PipeDoc> PARSER =
      doc -> {
        PipeDoc.Builder parsed =
            doc.toBuilder()
                .setSearchMetadata(
                    doc.getSearchMetadata().toBuilder().setTitle("parsed " + doc.getDocId()));
        if (doc.getBlobBag().getBlob().hasStorageRef()) {
          parsed
              .getBlobBagBuilder()
              .getBlobBuilder()
              .setData(uploadedBytes(doc.getBlobBag().getBlob().getStorageRef().getObjectKey()));
        }
        return parsed.build();
      };

  private static final UnaryOperator<PipeDoc> CHUNKER =
      doc ->
          doc.toBuilder()
              .setSearchMetadata(doc.getSearchMetadata().toBuilder().setAuthor("chunked"))
              .build();

  private HopHarness h;

  /** The work units the test's modules were handed, by node, in order. */
  private final List<String> called = new ArrayList<>();

  @BeforeEach
  void start() {
    h = HopHarness.memoizing();
  }

  @AfterEach
  void stop() {
    h.close();
  }

  @Test
  void aReplayAfterASinkOnlyChangeReusesTheUpstreamOutputsAndRunsOnlyTheSink() throws Exception {
    PipelineGraph v1 = linear("g-memo", 0);
    deploy(v1);
    run(admit(document("memo-sink", "en"), false), 3);
    assertThat(called).containsExactly("parse", "chunk", "index");
    assertThat(memoRows("memo-sink")).as("parse and chunk memoized; the sink never").isEqualTo(2);
    WorkDispatch firstIndex = lastIndexDispatch;

    deploy(withNode(v1, "index", n -> n.setCustomConfig(config("shards", "2"))));
    called.clear();
    h.events.produced.clear();
    Map<String, Long> hitsBefore = memoHits();
    String replay = admit(document("memo-sink", "en"), true);
    run(replay, 1);

    assertThat(called).as("only the changed sink runs its module").containsExactly("index");
    assertThat(h.steps())
        .extracting(StepExecutionRecord::getNodeId, StepExecutionRecord::getStatus)
        .containsExactly(
            Tuple.tuple("in", StepStatus.STEP_STATUS_SUCCESS),
            Tuple.tuple("parse", StepStatus.STEP_STATUS_MEMOIZED),
            Tuple.tuple("chunk", StepStatus.STEP_STATUS_MEMOIZED),
            Tuple.tuple("index", StepStatus.STEP_STATUS_SUCCESS));
    // The intake hop's Complete settled both memoized hops itself: neither ran a state.
    assertThat(statesEntered(replay))
        .contains("in.Complete", "index.Prepare", "index.Work")
        .noneMatch(state -> state.startsWith("parse.") || state.startsWith("chunk."));
    assertThat(HopHarness.parse(h.awaitClosed(replay).output()).path("memoized").toString())
        .as("the disposition names the memoized hops")
        .isEqualTo("[\"parse\",\"chunk\"]");
    Map<String, Long> hits = memoHits();
    for (String module : List.of("parser", "chunker")) {
      assertThat(hits.get(module) - hitsBefore.getOrDefault(module, 0L))
          .as("hops of %s answered from a memo", module)
          .isEqualTo(1);
    }
    // The sink is handed exactly what the chunker stored the first time.
    assertThat(body(lastIndexDispatch)).isEqualTo(body(firstIndex));
    assertThat(body(lastIndexDispatch).getSearchMetadata().getTitle())
        .isEqualTo("parsed memo-sink");
  }

  @Test
  void aSkippedHopStagesNoInputAtTheNodeWhoseMemoThenAnswers() throws Exception {
    // Without the language condition, parse neither maps nor routes on its body (decision 1838).
    PipelineGraph plain =
        linear("g-memo", 0).toBuilder().setEdges(1, edge("e2", "parse", "chunk")).build();
    deploy(plain);
    run(admit(document("memo-carry", "en"), false), 3);
    deploy(withNode(plain, "index", n -> n.setCustomConfig(config("shards", "2"))));
    called.clear();
    PipeDocManifest chunkBefore = manifest("memo-carry", "chunk");
    PipeDocManifest parseBefore = manifest("memo-carry", "parse");
    String replay = admit(document("memo-carry", "en"), true);
    h.staging.staged.clear();

    run(replay, 1);

    assertThat(called).containsExactly("index");
    assertThat(h.steps())
        .extracting(StepExecutionRecord::getNodeId, StepExecutionRecord::getStatus)
        .contains(
            Tuple.tuple("parse", StepStatus.STEP_STATUS_MEMOIZED),
            Tuple.tuple("chunk", StepStatus.STEP_STATUS_MEMOIZED));
    assertThat(h.staging.staged)
        .extracting(RecordingStaging.Staged::nodeId)
        .as(
            "the intake's inline body staged at parse, each memoized output put back at its node,"
                + " the sink's input, the sink's result; parse's output is never staged at chunk,"
                + " whose memo answers (decision 1839)")
        .containsExactly("parse", "parse", "chunk", "index", "index");
    assertThat(parts("memo-carry", "chunk"))
        .as("chunk's address holds what the chunker stored")
        .isEqualTo(parts("memo-carry", "chunk.memo"));
    assertThat(manifest("memo-carry", "chunk"))
        .as(
            "chunk's address still held its memo from the first run: left alone, same objects"
                + " (1840)")
        .isEqualTo(chunkBefore);
    assertThat(manifest("memo-carry", "parse").getEntries(0).getObjectKey())
        .as("parse's address held the staged intake copy, so its memo was put back (new objects)")
        .isNotEqualTo(parseBefore.getEntries(0).getObjectKey());
    assertThat(parts("memo-carry", "parse")).isEqualTo(parts("memo-carry", "parse.memo"));
  }

  @Test
  void aReplayMemoHitLeavesEveryNodesStateAsTheModulesStoredItBytesIncluded() throws Exception {
    PipelineGraph v1 = linear("g-memo", 0);
    deploy(v1);
    PipeDoc upload =
        document("memo-blobs", "en").toBuilder()
            .setBlobBag(
                BlobBag.newBuilder()
                    .setBlob(
                        Blob.newBuilder()
                            .setBlobId("original")
                            .setStorageRef(
                                FileStorageReference.newBuilder()
                                    .setDriveName("acme:intake")
                                    .setObjectKey("acme/ds-1/memo-blobs.txt"))))
            .build();
    run(admit(upload, false), 3);
    List<String> nodes = List.of("parse", "chunk", "index");
    List<List<String>> first = nodes.stream().map(n -> parts("memo-blobs", n)).toList();

    deploy(withNode(v1, "index", n -> n.setCustomConfig(config("shards", "2"))));
    called.clear();
    run(admit(upload, true), 1);

    assertThat(called).containsExactly("index");
    assertThat(nodes.stream().map(n -> parts("memo-blobs", n)).toList())
        .as("every part of every node's state, by SHA-256, as the first run stored it")
        .isEqualTo(first);
    for (String node : nodes) {
      assertThat(stored("memo-blobs", node).getBlobBag().getBlob().getData())
          .as("the uploaded bytes at %s", node)
          .isEqualTo(uploadedBytes("acme/ds-1/memo-blobs.txt"));
    }
  }

  @Test
  void withoutAReplayTheDefaultCallsEveryModule() throws Exception {
    PipelineGraph v1 = linear("g-memo", 0);
    deploy(v1);
    run(admit(document("memo-fresh", "en"), false), 3);
    deploy(withNode(v1, "index", n -> n.setCustomConfig(config("shards", "2"))));
    called.clear();
    run(admit(document("memo-fresh", "en"), false), 3);
    assertThat(called).containsExactly("parse", "chunk", "index");
  }

  @Test
  void aChangedConfigInvalidatesTheNodeButNotTheNodesBeforeIt() throws Exception {
    PipelineGraph v1 = linear("g-memo", 0);
    deploy(v1);
    run(admit(document("memo-config", "en"), false), 3);
    deploy(withNode(v1, "chunk", n -> n.setCustomConfig(config("size", "512"))));
    called.clear();
    run(admit(document("memo-config", "en"), true), 2);
    assertThat(called).containsExactly("chunk", "index");
  }

  @Test
  void aChangedModuleVersionInvalidatesTheNode() throws Exception {
    PipelineGraph v1 = linear("g-memo", 0);
    deploy(v1);
    run(admit(document("memo-version", "en"), false), 3);
    deploy(withNode(v1, "parse", n -> n.setModuleVersion("parser-2")));
    called.clear();
    run(admit(document("memo-version", "en"), true), 2);
    assertThat(called)
        .as("parse runs again; its output is the same bytes, so the chunker's memo still holds")
        .containsExactly("parse", "index");
    assertThat(h.steps().stream().filter(s -> s.getNodeId().equals("parse")).toList())
        .extracting(StepExecutionRecord::getStatus)
        .containsExactly(StepStatus.STEP_STATUS_SUCCESS, StepStatus.STEP_STATUS_SUCCESS);
  }

  @Test
  void aChangedInputPartInvalidatesEveryNodeItReaches() throws Exception {
    PipelineGraph v1 = linear("g-memo", 0);
    deploy(v1);
    run(admit(document("memo-input", "en"), false), 3);
    // Same graph content, a new version, so the replay is a new execution.
    deploy(v1.toBuilder().putLabels("rev", "2").build());
    called.clear();
    PipeDoc changed =
        document("memo-input", "en").toBuilder()
            .setSearchMetadata(SearchMetadata.newBuilder().setLanguage("en").addKeywords("changed"))
            .build();
    run(admit(changed, true), 3);
    assertThat(called).containsExactly("parse", "chunk", "index");
  }

  @Test
  void aPurgedMemoizedOutputIsAMissAndItsMemoIsForgotten() throws Exception {
    PipelineGraph v1 = linear("g-memo", 0);
    deploy(v1);
    run(admit(document("memo-purged", "en"), false), 3);
    DocumentReference memo =
        DocumentReference.newBuilder()
            .setDocId("memo-purged")
            .setAccountId("acme")
            .setGraphId("g-memo")
            .setGraphAddressId("parse.memo")
            .setKeep(true)
            .build();
    assertThat(h.staging.activeManifest(memo)).as("the parser's output was memoized").isPresent();
    RecordingStaging.store()
        .delete(DeletePipeDocRequest.newBuilder().setDocumentRef(memo).setReason("test").build());

    deploy(withNode(v1, "index", n -> n.setCustomConfig(config("shards", "2"))));
    called.clear();
    run(admit(document("memo-purged", "en"), true), 2);
    assertThat(called)
        .as("the parser runs again; the chunker's memo still holds")
        .containsExactly("parse", "index");
  }

  @Test
  void aNodeWithMemoizationOffAlwaysCallsItsModule() throws Exception {
    PipelineGraph v1 =
        withNode(linear("g-memo", 0), "parse", n -> n.setMemoization(Memoization.MEMOIZATION_OFF));
    deploy(v1);
    run(admit(document("memo-off", "en"), false), 3);
    deploy(withNode(v1, "index", n -> n.setCustomConfig(config("shards", "2"))));
    called.clear();
    run(admit(document("memo-off", "en"), true), 2);
    assertThat(called)
        .as("parse is off; chunk's input is parse's unchanged output, so chunk is memoized")
        .containsExactly("parse", "index");
  }

  @Test
  void aRightToBeForgottenDocumentIsNeverMemoized() throws Exception {
    PipelineGraph v1 =
        withNode(
            memoryEdges(linear("g-memo", 0)),
            "parse",
            n -> n.setMemoization(Memoization.MEMOIZATION_ALWAYS));
    deploy(v1);
    PipeDoc forgettable =
        document("memo-rtbf", "en").toBuilder()
            .setOwnership(
                OwnershipContext.newBuilder().setAccountId("acme").setRightToBeForgotten(true))
            .build();
    run(admit(forgettable, false), 3);
    deploy(v1.toBuilder().putLabels("rev", "2").build());
    called.clear();
    run(admit(forgettable, true), 3);
    assertThat(called).containsExactly("parse", "chunk", "index");
    assertThat(memoRows("memo-rtbf")).as("no memo row names the document").isZero();
    assertThat(h.staging.staged)
        .extracting(RecordingStaging.Staged::nodeId)
        .as("nothing of the document was written down")
        .isEmpty();
  }

  // ------------------------------------------------------------------------------------ helpers

  private WorkDispatch lastIndexDispatch;

  /** Deploys {@code graph} as declared: its processors memoize by default (decision 1812). */
  private void deploy(PipelineGraph graph) {
    long version = h.admin.create(graph, OptionalLong.empty(), "ann").graph().getVersion();
    h.activation.activate(graph.getGraphId(), "c1", version);
  }

  private String admit(PipeDoc doc, boolean replay) {
    Intake intake =
        new Intake(
            "acme",
            "ds-1",
            doc.getDocId(),
            PipeStream.newBuilder().setStreamId("s-" + doc.getDocId()).setDocument(doc).build());
    List<AdmissionRecord> admitted =
        h.admission.admit(replay ? intake.replayedBy("replay-1") : intake);
    assertThat(admitted).singleElement().satisfies(r -> assertThat(r.executionArn()).isNotEmpty());
    return admitted.getFirst().executionArn();
  }

  /** Plays the modules for {@code modules} dispatches, then waits for the execution to end. */
  private void run(String execution, int modules) throws Exception {
    for (int i = 0; i < modules; i++) {
      WorkDispatch work = h.nextDispatch();
      called.add(work.getNodeId());
      switch (work.getNodeId()) {
        case "parse" -> play(work, PARSER);
        case "chunk" -> play(work, CHUNKER);
        default -> {
          lastIndexDispatch = work;
          play(work, UnaryOperator.identity());
        }
      }
    }
    assertThat(h.awaitClosed(execution).status()).isEqualTo(ExecutionStatus.SUCCEEDED);
  }

  /** The module's work and the gateway's save of its result at the hop's address. */
  private void play(WorkDispatch work, UnaryOperator<PipeDoc> module) throws Exception {
    PipeStream stream = work.getStream();
    if (stream.hasDocument()) {
      h.succeed(work, stream.toBuilder().setDocument(module.apply(stream.getDocument())).build());
      return;
    }
    DocumentReference in = stream.getDocumentRef();
    PipeDoc out = module.apply(h.staging.hydrate(in, Set.of(), true));
    DocumentReference saved =
        h.staging.stageFrom(
            in, out, "acme", work.getGraphId(), work.getNodeId(), work.getResultKeep());
    h.succeed(work, stream.toBuilder().setDocumentRef(saved).build());
  }

  /** The names of the states the execution entered, in order. */
  private List<String> statesEntered(String executionArn) {
    List<String> names = new ArrayList<>();
    h.sfn
        .getExecutionHistoryPaginator(b -> b.executionArn(executionArn))
        .events()
        .forEach(
            e -> {
              if (e.stateEnteredEventDetails() != null) {
                names.add(e.stateEnteredEventDetails().name());
              }
            });
    return names;
  }

  private static Map<String, Long> memoHits() throws Exception {
    return new PostgresHopMemos(
            RecordingStaging.harness().postgres.dataSource(), InstantSource.system())
        .reusesByModule();
  }

  private static int memoRows(String docId) throws Exception {
    try (var c = RecordingStaging.harness().postgres.dataSource().getConnection();
        var count = c.prepareStatement("SELECT count(*) FROM hop_memos WHERE doc_id = ?")) {
      count.setString(1, docId);
      try (var row = count.executeQuery()) {
        row.next();
        return row.getInt(1);
      }
    }
  }

  /** Each part of the document's stored state at {@code node}: part, set, state and SHA-256. */
  private List<String> parts(String docId, String node) {
    return h.staging.activeManifest(ref(docId, node)).orElseThrow().getEntriesList().stream()
        .map(e -> e.getPart() + "/" + e.getSubKey() + " " + e.getState() + " " + e.getSha256())
        .toList();
  }

  private PipeDocManifest manifest(String docId, String node) {
    return h.staging.activeManifest(ref(docId, node)).orElseThrow();
  }

  private PipeDoc stored(String docId, String node) {
    return h.staging.hydrate(ref(docId, node), Set.of(), true);
  }

  private static DocumentReference ref(String docId, String node) {
    return DocumentReference.newBuilder()
        .setDocId(docId)
        .setAccountId("acme")
        .setGraphId("g-memo")
        .setGraphAddressId(node)
        .setKeep(true)
        .build();
  }

  private static ByteString uploadedBytes(String objectKey) {
    return ByteString.copyFromUtf8("the bytes of " + objectKey);
  }

  private PipeDoc body(WorkDispatch work) {
    return h.staging.hydrate(work.getStream().getDocumentRef(), Set.of(), true);
  }

  private static PipelineGraph withNode(
      PipelineGraph graph, String nodeId, UnaryOperator<GraphNode.Builder> change) {
    PipelineGraph.Builder b = graph.toBuilder();
    for (int i = 0; i < b.getNodesCount(); i++) {
      if (b.getNodes(i).getNodeId().equals(nodeId)) {
        b.setNodes(i, change.apply(b.getNodes(i).toBuilder()));
      }
    }
    return b.build();
  }

  private static PipelineGraph memoryEdges(PipelineGraph graph) {
    PipelineGraph.Builder b = graph.toBuilder();
    for (int i = 0; i < b.getEdgesCount(); i++) {
      b.setEdges(
          i, b.getEdges(i).toBuilder().setTransportType(TransportType.TRANSPORT_TYPE_MEMORY));
    }
    return b.build();
  }

  private static Struct config(String key, String value) {
    return Struct.newBuilder()
        .putFields(key, Value.newBuilder().setStringValue(value).build())
        .build();
  }

  private static PipeDoc document(String docId, String language) {
    return PipeDoc.newBuilder()
        .setDocId(docId)
        .setSearchMetadata(SearchMetadata.newBuilder().setLanguage(language).addKeywords("k"))
        .build();
  }
}
