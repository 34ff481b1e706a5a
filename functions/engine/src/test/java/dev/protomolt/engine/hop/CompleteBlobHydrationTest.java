package dev.protomolt.engine.hop;

import static dev.protomolt.core.graph.SampleGraphs.edge;
import static dev.protomolt.core.graph.SampleGraphs.intake;
import static dev.protomolt.core.graph.SampleGraphs.processor;
import static dev.protomolt.core.graph.SampleGraphs.sink;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import dev.protomolt.core.orchestration.DocumentStaging;
import dev.protomolt.proto.config.v1.MappingType;
import dev.protomolt.proto.config.v1.ModuleCapabilities;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.ProcessingMapping;
import dev.protomolt.proto.config.v1.TransportType;
import dev.protomolt.proto.data.v1.Blob;
import dev.protomolt.proto.data.v1.BlobBag;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeDocPart;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.repository.v1.GetPipeDocManifestRequest;
import dev.protomolt.proto.repository.v1.PartManifestEntry;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Hydration level 2 in Complete: the blob bytes are read only where this hop needs them (a MEMORY
 * copy, routing or mappings naming the blob bag), and a stored destination carries BLOBS from the
 * input's stored state, while the parts Complete did read are still diffed and written as changed.
 */
class CompleteBlobHydrationTest {

  private static final ByteString BYTES = ByteString.copyFromUtf8("%PDF-".repeat(2000));

  private HopHarness h;

  @BeforeEach
  void start() {
    h = new HopHarness();
    h.admin.create(
        PipelineGraph.newBuilder()
            .setGraphId("g5")
            .setClusterId("c1")
            .setAccountId("acme")
            .setName("level 2")
            .addNodes(intake("in", "acme-uploads"))
            .addNodes(
                processor("parse", "parser").toBuilder()
                    .setCapabilities(ModuleCapabilities.newBuilder().setNeedsBlobContent(true))
                    .addPostMappings(
                        ProcessingMapping.newBuilder()
                            .setMappingId("title-to-body")
                            .setMappingType(MappingType.MAPPING_TYPE_DIRECT)
                            .addSourceFieldPaths("search_metadata.title")
                            .setTargetFieldPath("search_metadata.body")))
            .addNodes(processor("chunk", "chunker"))
            .addNodes(processor("route", "router"))
            .addNodes(processor("tidy", "tidier"))
            .addNodes(sink("index", "plan-1"))
            .addEdges(edge("e1", "in", "parse"))
            .addEdges(edge("e2", "parse", "chunk"))
            .addEdges(
                edge("e3", "chunk", "index").toBuilder()
                    .setTransportType(TransportType.TRANSPORT_TYPE_MEMORY))
            .addEdges(edge("e5", "in", "route"))
            .addEdges(edge("e6", "in", "tidy"))
            .addEdges(edge("e7", "tidy", "index"))
            .addEdges(
                edge(
                    "e4",
                    "route",
                    "index",
                    "document.blob_bag.blob.mime_type == 'application/pdf'",
                    0))
            .build(),
        OptionalLong.empty(),
        "ann");
  }

  @AfterEach
  void stop() {
    h.close();
  }

  @Test
  void aStoredDestinationCarriesTheBlobsUnreadWhileChangedPartsAreStillWritten() {
    DocumentReference input = h.staging.stage(withBlob("d1"), "acme", "g5", "parse", true);

    JsonNode out = complete("parse", input);

    assertThat(h.staging.blobRequests).as("Complete read no blob bytes").containsExactly(false);
    DocumentReference next = ref(out.at("/stream/documentRef"));
    assertThat(next.getGraphAddressId()).isEqualTo("chunk");
    PipeDoc landed = h.staging.hydrate(next, Set.of(), true);
    assertThat(landed.getSearchMetadata().getBody())
        .as("the post-mapping's change was observed and written")
        .isEqualTo("Quarterly");
    assertThat(landed.getBlobBag().getBlob().getData()).isEqualTo(BYTES);
    assertThat(entry(next, PipeDocPart.PIPE_DOC_PART_BLOBS).getSha256())
        .as("BLOBS carried from the input, byte for byte")
        .isEqualTo(entry(input, PipeDocPart.PIPE_DOC_PART_BLOBS).getSha256());
    assertThat(entry(next, PipeDocPart.PIPE_DOC_PART_CORE).getSha256())
        .isNotEqualTo(entry(input, PipeDocPart.PIPE_DOC_PART_CORE).getSha256());
  }

  @Test
  void aMemoryDestinationReadsTheBlobsBecauseTheWholeBodyTravelsInline() {
    DocumentReference input = h.staging.stage(withBlob("d2"), "acme", "g5", "chunk", true);

    JsonNode out = complete("chunk", input);

    assertThat(h.staging.blobRequests).containsExactly(false, true);
    assertThat(out.at("/stream/document/blobBag/blob/data").asText())
        .isEqualTo(java.util.Base64.getEncoder().encodeToString(BYTES.toByteArray()));
  }

  @Test
  void routingThatNamesTheBlobBagHasTheBlobsInHandBeforeItRuns() {
    DocumentReference input = h.staging.stage(withBlob("d3"), "acme", "g5", "route", true);

    JsonNode out = complete("route", input);

    assertThat(h.staging.blobRequests).containsExactly(true);
    assertThat(out.get("node").asText())
        .as("the blob's mime type was there to route on")
        .isEqualTo("index");
  }

  @Test
  void aHopThatNeitherMapsNorRoutesOnItsBodyCarriesTheStoredStateUnreadPartForPart() {
    PipeDoc stored = withBlob("d5");
    DocumentReference input = h.staging.stage(stored, "acme", "g5", "tidy", true);

    JsonNode out = complete("tidy", input);

    assertThat(h.staging.blobRequests)
        .as("no post-mapping, no condition, no MEMORY edge: Complete read no part (decision 1838)")
        .isEmpty();
    DocumentReference next = ref(out.at("/stream/documentRef"));
    assertThat(next.getGraphAddressId()).isEqualTo("index");
    assertThat(next.getKeep()).isTrue();
    for (PipeDocPart part :
        Set.of(
            PipeDocPart.PIPE_DOC_PART_CORE,
            PipeDocPart.PIPE_DOC_PART_BLOBS,
            PipeDocPart.PIPE_DOC_PART_PARSED)) {
      assertThat(entry(next, part).getSha256())
          .as(part + " carried byte for byte, CORE included")
          .isEqualTo(entry(input, part).getSha256());
    }
    assertThat(entry(next, PipeDocPart.PIPE_DOC_PART_CORE).getWrittenBy().getCarriedForward())
        .as("copied, not written again")
        .isTrue();
    assertThat(h.staging.hydrate(next, Set.of(), true)).isEqualTo(stored);
  }

  @Test
  void aCarryOfEveryPartIsRefusedWhenItNamesPartsToWriteOrNoSource() {
    DocumentReference input = h.staging.stage(withBlob("d6"), "acme", "g5", "tidy", true);
    var carry =
        dev.protomolt.proto.repository.v1.SavePipeDocRequest.newBuilder()
            .setPipedoc(PipeDoc.newBuilder().setDocId("d6"))
            .setAccountId("acme")
            .setGraphId("g5")
            .setGraphLocationId("index")
            .setKeep(true);
    int before = h.staging.staged.size();

    assertThatThrownBy(
            () ->
                RecordingStaging.store()
                    .carryAll(
                        carry
                            .clone()
                            .setCopyUnwrittenPartsFrom(input)
                            .addPartsWritten(PipeDocPart.PIPE_DOC_PART_CORE)
                            .build()))
        .hasMessageContaining("parts_written")
        .hasMessageContaining("must be empty for a carry of every part");
    assertThatThrownBy(() -> RecordingStaging.store().carryAll(carry.clone().build()))
        .hasMessageContaining("copy_unwritten_parts_from")
        .hasMessageContaining("required for a carry of every part");
    assertThat(h.staging.staged).hasSize(before);

    DocumentReference cache = h.staging.stage(withBlob("d7"), "acme", "g5", "tidy", false);
    h.staging.reclaim(cache);
    assertThatThrownBy(() -> h.staging.carryAll(cache, "acme", "g5", "index", true))
        .isInstanceOf(dev.protomolt.repository.PipeDocStoreException.DocumentNotFound.class)
        .hasMessageStartingWith("no stored document 'd7' at tidy to carry to node 'index' (")
        .hasMessageEndingWith("); replay the document to store it again");
  }

  @Test
  void aSaveThatCannotCarryTheUnreadBlobsIsRefusedAndWritesNothing() {
    DocumentReference input = h.staging.stage(withBlob("d4"), "acme", "g5", "parse", false);
    PipeDoc withoutBlobs = h.staging.hydrate(input, Set.of(), false);
    h.staging.reclaim(input);
    int before = h.staging.staged.size();

    assertThatThrownBy(
            () -> h.staging.stageFromWithoutBlobs(input, withoutBlobs, "acme", "g5", "chunk", true))
        .isInstanceOf(DocumentStaging.BlobsNotInHand.class)
        .hasMessage(
            "doc 'd4' was read without its blobs and its source is no longer active, so they"
                + " cannot be carried to node 'chunk'; nothing was written");
    assertThat(h.staging.staged).hasSize(before);
  }

  private JsonNode complete(String node, DocumentReference input) {
    ObjectNode p = HopHarness.JSON.createObjectNode();
    p.put("graphId", "g5");
    p.put("graphVersion", 1);
    p.put("clusterId", "c1");
    p.put("nodeId", node);
    p.put("executionId", "arn:aws:states:us-east-1:000000000000:execution:protomolt-test-g5:e1");
    p.put("outcome", "CONTINUE");
    p.put("workUnitId", "wu-" + node);
    try {
      p.set(
          "stream",
          HopHarness.tree(
              PipeStream.newBuilder()
                  .setStreamId("s")
                  .setDocumentRef(input)
                  .setMetadata(
                      dev.protomolt.proto.data.v1.StreamMetadata.newBuilder()
                          .setAccountId("acme")
                          .setGraphId("g5")
                          .setGraphVersion(1))
                  .build()));
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    }
    h.staging.blobRequests.clear();
    return HopHarness.parse(h.complete.handle(p.toString()));
  }

  private static DocumentReference ref(JsonNode json) {
    DocumentReference.Builder b = DocumentReference.newBuilder();
    try {
      com.google.protobuf.util.JsonFormat.parser().merge(json.toString(), b);
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    }
    return b.build();
  }

  private static PartManifestEntry entry(DocumentReference ref, PipeDocPart part) {
    return RecordingStaging.store()
        .getManifest(GetPipeDocManifestRequest.newBuilder().setDocumentRef(ref).build())
        .getManifest()
        .getEntriesList()
        .stream()
        .filter(e -> e.getPart() == part)
        .findFirst()
        .orElseThrow();
  }

  private static PipeDoc withBlob(String id) {
    return PipeDoc.newBuilder()
        .setDocId(id)
        .setSearchMetadata(SearchMetadata.newBuilder().setTitle("Quarterly").setBody("raw"))
        .setBlobBag(
            BlobBag.newBuilder()
                .setBlob(
                    Blob.newBuilder()
                        .setBlobId("original")
                        .setMimeType("application/pdf")
                        .setData(BYTES)))
        .build();
  }
}
