package dev.protomolt.repository.grpc;

import static dev.protomolt.proto.data.v1.PipeDocPart.PIPE_DOC_PART_BLOBS;
import static dev.protomolt.proto.data.v1.PipeDocPart.PIPE_DOC_PART_PARSED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.identity.NodeCoordinates;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.repository.v1.DeletePipeDocRequest;
import dev.protomolt.proto.repository.v1.DocumentStatus;
import dev.protomolt.proto.repository.v1.GetPipeDocManifestRequest;
import dev.protomolt.proto.repository.v1.PipeDocServiceGrpc;
import dev.protomolt.proto.repository.v1.ReplayCandidate;
import dev.protomolt.proto.repository.v1.ReplayEligibility;
import dev.protomolt.proto.repository.v1.SavePipeDocRequest;
import dev.protomolt.proto.repository.v1.SavePipeDocResponse;
import dev.protomolt.proto.repository.v1.StreamDocumentsForReplayRequest;
import dev.protomolt.repository.PipeDocStore;
import dev.protomolt.repository.fixtures.SampleDocs;
import dev.protomolt.repository.fixtures.Saves;
import dev.protomolt.repository.fixtures.StoreHarness;
import dev.protomolt.repository.replay.ReplayQuery;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.util.ArrayList;
import java.util.UUID;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;

class PipeDocGrpcServiceTest {

  private static final String ACME = "acme";
  private static final String GRAPH = "news-graph";

  private static StoreHarness h;
  private static Server server;
  private static ManagedChannel channel;
  private static PipeDocServiceGrpc.PipeDocServiceBlockingStub stub;

  @BeforeAll
  static void start() throws Exception {
    h = StoreHarness.start();
    h.store.onAccountEvent(StoreHarness.platformAccount(ACME));
    String name = InProcessServerBuilder.generateName();
    server =
        InProcessServerBuilder.forName(name)
            .directExecutor()
            .addService(new PipeDocGrpcService(h.store, new ReplayQuery(h.postgres.dataSource())))
            .build()
            .start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    stub = PipeDocServiceGrpc.newBlockingStub(channel);
  }

  @AfterAll
  static void stop() throws Exception {
    channel.shutdownNow();
    server.shutdownNow();
    h.close();
  }

  private static PipeDoc doc(long seed) {
    return SampleDocs.document("doc-" + UUID.randomUUID(), seed, 2048, "chunker-a");
  }

  @Test
  void saveGetAndManifestRoundTripOverTheDoor() {
    PipeDoc doc = doc(1);

    SavePipeDocResponse saved =
        stub.savePipeDoc(Saves.pipeline(ACME, GRAPH, "parser", doc).build());

    assertThat(stub.getPipeDoc(Saves.read(saved.getDocumentRef())).getPipedoc()).isEqualTo(doc);
    var manifest =
        stub.getPipeDocManifest(
            GetPipeDocManifestRequest.newBuilder().setDocumentRef(saved.getDocumentRef()).build());
    assertThat(manifest.getStatus()).isEqualTo(DocumentStatus.DOCUMENT_STATUS_ACTIVE);
    assertThat(manifest.getManifest()).isEqualTo(saved.getManifest());
  }

  @Test
  void aGoneCopySourceIsFailedPreconditionAndTheFullSaveRetrySucceeds() {
    PipeDoc doc = doc(2);
    SavePipeDocResponse first =
        stub.savePipeDoc(Saves.pipeline(ACME, GRAPH, "parser", doc).build());
    try (S3Client admin = h.platform.adminClient()) {
      admin.deleteObject(
          DeleteObjectRequest.builder()
              .bucket(StoreHarness.PLATFORM_BUCKET)
              .key(
                  first.getManifest().getEntriesList().stream()
                      .filter(e -> e.getPart() == PIPE_DOC_PART_BLOBS)
                      .findFirst()
                      .orElseThrow()
                      .getObjectKey())
              .build());
    }
    SavePipeDocRequest partial =
        Saves.partial(
                Saves.pipeline(ACME, GRAPH, "enricher", doc),
                first.getDocumentRef(),
                PIPE_DOC_PART_PARSED)
            .build();

    assertStatus(
        () -> stub.savePipeDoc(partial),
        Status.Code.FAILED_PRECONDITION,
        "copy_unwritten_parts_from");

    // What a caller does on FAILED_PRECONDITION: the same save, written in full.
    SavePipeDocResponse retried =
        stub.savePipeDoc(
            partial.toBuilder().clearPartsWritten().clearCopyUnwrittenPartsFrom().build());
    assertThat(retried.getPartsWrittenCount()).isEqualTo(4);
    assertThat(stub.getPipeDoc(Saves.read(retried.getDocumentRef())).getPipedoc()).isEqualTo(doc);
  }

  @Test
  void refusalsMapToTheirStatusCodes() {
    PipeDoc doc = doc(3);
    assertStatus(
        () -> stub.savePipeDoc(Saves.pipeline(ACME, "intake:acme", "n", doc).build()),
        Status.Code.INVALID_ARGUMENT,
        "graph_id");
    assertStatus(
        () -> stub.savePipeDoc(Saves.intake("ghost", "ds", doc).build()),
        Status.Code.FAILED_PRECONDITION,
        "not provisioned");
    assertStatus(
        () ->
            stub.getPipeDoc(
                Saves.read(
                    PipeDocStore.reference(new NodeCoordinates("nope", "n", ACME, GRAPH), false))),
        Status.Code.NOT_FOUND,
        "no stored document");

    SavePipeDocResponse saved =
        stub.savePipeDoc(Saves.pipeline(ACME, GRAPH, "parser", doc).build());
    try (S3Client admin = h.platform.adminClient()) {
      admin.deleteObject(
          DeleteObjectRequest.builder()
              .bucket(StoreHarness.PLATFORM_BUCKET)
              .key(
                  saved.getManifest().getEntriesList().stream()
                      .filter(e -> e.getPart() == PIPE_DOC_PART_PARSED)
                      .findFirst()
                      .orElseThrow()
                      .getObjectKey())
              .build());
    }
    assertStatus(
        () -> stub.getPipeDoc(Saves.read(saved.getDocumentRef())),
        Status.Code.DATA_LOSS,
        "part PARSED");
  }

  @Test
  void deleteOverTheDoorTombstonesPublishesAndRefusesABlankIdentity() {
    h.purgeEvents.drain();
    SavePipeDocResponse saved =
        stub.savePipeDoc(Saves.pipeline(ACME, GRAPH, "parser", doc(4)).build());

    var deleted =
        stub.deletePipeDoc(
            DeletePipeDocRequest.newBuilder().setDocumentRef(saved.getDocumentRef()).build());

    assertThat(deleted.getTombstoned()).isTrue();
    assertThat(h.purgeEvents.drain())
        .singleElement()
        .satisfies(e -> assertThat(e.getPurgeEventId()).isEqualTo(deleted.getPurgeEventId()));
    assertStatus(
        () -> stub.getPipeDoc(Saves.read(saved.getDocumentRef())),
        Status.Code.NOT_FOUND,
        saved.getNodeId());
    assertThat(
            stub.deletePipeDoc(
                    DeletePipeDocRequest.newBuilder()
                        .setDocumentRef(saved.getDocumentRef())
                        .build())
                .getTombstoned())
        .as("a second delete finds no ACTIVE row")
        .isFalse();
    assertThat(h.purgeEvents.drain()).isEmpty();
    assertStatus(
        () ->
            stub.deletePipeDoc(
                DeletePipeDocRequest.newBuilder()
                    .setDocumentRef(saved.getDocumentRef().toBuilder().setAccountId(""))
                    .build()),
        Status.Code.INVALID_ARGUMENT,
        "document_ref.account_id");
  }

  @Test
  void replayStreamsCandidatesOverTheDoorAndRefusesABareAccount() {
    PipeDoc doc = doc(5);
    stub.savePipeDoc(Saves.intake(ACME, "ds-replay", doc).setCrawlId("crawl-door").build());

    var candidates = new ArrayList<ReplayCandidate>();
    stub.streamDocumentsForReplay(
            StreamDocumentsForReplayRequest.newBuilder()
                .setAccountId(ACME)
                .setCrawlId("crawl-door")
                .build())
        .forEachRemaining(candidates::add);

    assertThat(candidates)
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.getDocumentRef().getDocId()).isEqualTo(doc.getDocId());
              assertThat(c.getEligibility())
                  .isEqualTo(ReplayEligibility.REPLAY_ELIGIBILITY_REPLAYABLE);
            });
    assertStatus(
        () ->
            stub.streamDocumentsForReplay(
                    StreamDocumentsForReplayRequest.newBuilder().setAccountId(ACME).build())
                .hasNext(),
        Status.Code.INVALID_ARGUMENT,
        "bare account_id");
  }

  private static void assertStatus(ThrowingCallable call, Status.Code code, String text) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(code);
              assertThat(e.getStatus().getDescription()).contains(text);
            });
  }
}
