package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.util.JsonFormat;
import dev.protomolt.core.rtbf.DataKeys;
import dev.protomolt.core.rtbf.InMemoryDataKeys;
import dev.protomolt.core.rtbf.SealedStreams;
import dev.protomolt.proto.data.v1.Blob;
import dev.protomolt.proto.data.v1.BlobBag;
import dev.protomolt.proto.data.v1.OwnershipContext;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.data.v1.StreamMetadata;
import dev.protomolt.proto.module.v1.WorkDispatch;
import dev.protomolt.repository.fixtures.StoreHarness;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The gateway's side of a right-to-be-forgotten body (decision 1509), on the real store (S3Proxy
 * and embedded PostgreSQL) with in-process data keys: the module is served the opened body, its
 * result goes back sealed under the same key, a result that cannot ride inline is refused with
 * nothing written, and a unit whose key is gone or unavailable is failed naming why.
 */
class SealedWorkDocumentsTest {

  static final String ACCOUNT = "acme";
  static final String MARKER = "sealed-gateway-marker-41d0";
  static StoreHarness h;

  final InMemoryDataKeys keys = new InMemoryDataKeys();
  final SealedStreams seals = new SealedStreams(keys);

  @BeforeAll
  static void startStore() {
    h = StoreHarness.start();
    h.store.onAccountEvent(StoreHarness.platformAccount(ACCOUNT));
  }

  @AfterAll
  static void stopStore() throws Exception {
    h.close();
  }

  @Test
  void theModuleIsServedTheOpenedBodyAndItsResultGoesBackSealedUnderTheSameKey() throws Exception {
    WorkDispatch dispatch = sealedDispatch("d-open", doc("d-open", MARKER));
    SealedWorkDocuments documents = documents(keys);

    HydratedUnit served = documents.hydrate(dispatch);
    assertThat(served.stream().getDocument().getBlobBag().getBlob().getData().toStringUtf8())
        .as("what the module is served")
        .isEqualTo(MARKER);

    PipeDoc processed =
        served.stream().getDocument().toBuilder()
            .setSearchMetadata(SearchMetadata.newBuilder().setBody("parsed " + MARKER))
            .build();
    PipeStream next = documents.saveResult(dispatch, served, processed);

    assertThat(next.hasSealedDocument()).as("what SendTaskSuccess carries").isTrue();
    assertThat(next.getMetadata().getDataKeyId())
        .isEqualTo(dispatch.getStream().getMetadata().getDataKeyId());
    assertThat(JsonFormat.printer().print(next)).doesNotContain(MARKER);
    assertThat(next.toByteString().toStringUtf8()).doesNotContain(MARKER);
    assertThat(seals.open(next).getDocument()).isEqualTo(processed);
    assertThat(storedRows("d-open")).isZero();
  }

  @Test
  void aResultTooLargeToRideInlineIsRefusedAndNothingIsStoredEvenIfTheModuleDroppedTheFlag() {
    WorkDispatch dispatch = sealedDispatch("d-big", doc("d-big", MARKER));
    SealedWorkDocuments documents = documents(keys);
    HydratedUnit served = documents.hydrate(dispatch);
    // The module clears right_to_be_forgotten and grows the body past the inline budget.
    PipeDoc grown =
        served.stream().getDocument().toBuilder()
            .setOwnership(OwnershipContext.newBuilder().setAccountId(ACCOUNT))
            .setSearchMetadata(SearchMetadata.newBuilder().setBody("x".repeat(300 * 1024)))
            .build();
    h.counter.reset();

    assertThatThrownBy(() -> documents.saveResult(dispatch, served, grown))
        .isInstanceOf(TaskOutputTooLargeException.class)
        .hasMessageContaining("work unit wu-d-big")
        .hasMessageContaining("a right-to-be-forgotten document is never stored");
    assertThat(h.counter.calls("PutObject")).isZero();
    assertThat(storedRows("d-big")).isZero();
  }

  @Test
  void aUnitWhoseKeyWasDestroyedFailsPermanentlyNamingTheKey() {
    WorkDispatch dispatch = sealedDispatch("d-gone", doc("d-gone", MARKER));
    keys.destroy(dispatch.getStream().getMetadata().getDataKeyId());

    assertThatThrownBy(() -> documents(keys).hydrate(dispatch))
        .isInstanceOfSatisfying(
            HydrationFailedException.class, e -> assertThat(e.permanent()).isTrue())
        .hasMessageContaining("stream.sealed_document")
        .hasMessageContaining("data key '" + SealedStreams.intakeKeyId(ACCOUNT, "d-gone") + "'");
  }

  @Test
  void aGatewayWithoutDataKeysFailsTheUnitForARetryNamingTheVariable() {
    WorkDispatch dispatch = sealedDispatch("d-unset", doc("d-unset", MARKER));
    DataKeys none = DataKeys.unconfigured("PROTOMOLT_DATA_KEY_ARN is not set");

    assertThatThrownBy(() -> documents(none).hydrate(dispatch))
        .isInstanceOfSatisfying(
            HydrationFailedException.class, e -> assertThat(e.permanent()).isFalse())
        .hasMessageContaining("stream.sealed_document: the data key could not be opened")
        .hasMessageContaining("PROTOMOLT_DATA_KEY_ARN is not set");
  }

  @Test
  void aStreamWithoutADataKeyPassesThroughUntouched() {
    PipeDoc plain = doc("d-plain", "kept in the clear");
    WorkDispatch dispatch = dispatch(stream("d-plain").setDocument(plain).build());
    SealedWorkDocuments documents = documents(DataKeys.unconfigured("no keys here"));

    HydratedUnit served = documents.hydrate(dispatch);
    PipeStream next = documents.saveResult(dispatch, served, plain);

    assertThat(served.stream()).isEqualTo(dispatch.getStream());
    assertThat(next.getDocument()).isEqualTo(plain);
    assertThat(next.hasSealedDocument()).isFalse();
  }

  private SealedWorkDocuments documents(DataKeys dataKeys) {
    return new SealedWorkDocuments(new StoreWorkDocuments(h.store), new SealedStreams(dataKeys));
  }

  private WorkDispatch sealedDispatch(String docId, PipeDoc body) {
    PipeStream sealed =
        seals.sealNew(
            stream(docId).setDocument(body).build(), SealedStreams.intakeKeyId(ACCOUNT, docId));
    assertThat(sealed.toByteString().toStringUtf8()).doesNotContain(MARKER);
    return dispatch(sealed);
  }

  private static PipeStream.Builder stream(String docId) {
    return PipeStream.newBuilder()
        .setStreamId("s-" + docId)
        .setCurrentNodeId("parse")
        .setMetadata(StreamMetadata.newBuilder().setAccountId(ACCOUNT).setDatasourceId("uploads"));
  }

  private static WorkDispatch dispatch(PipeStream stream) {
    return WorkDispatch.newBuilder()
        .setWorkUnitId("wu-" + stream.getStreamId().substring(2))
        .setTaskToken("t")
        .setModuleId("parser")
        .setNodeId("parse")
        .setGraphId("g-rtbf")
        .setGraphVersion(1)
        .setClusterId("c1")
        .setStream(stream)
        .build();
  }

  private static PipeDoc doc(String docId, String text) {
    return PipeDoc.newBuilder()
        .setDocId(docId)
        .setOwnership(
            OwnershipContext.newBuilder().setAccountId(ACCOUNT).setRightToBeForgotten(true))
        .setBlobBag(
            BlobBag.newBuilder()
                .setBlob(
                    Blob.newBuilder().setBlobId("original").setData(ByteString.copyFromUtf8(text))))
        .build();
  }

  private static int storedRows(String docId) {
    try (Connection c = h.postgres.dataSource().getConnection();
        PreparedStatement s =
            c.prepareStatement("SELECT count(*) FROM pipedocs WHERE doc_id = ?")) {
      s.setString(1, docId);
      try (ResultSet r = s.executeQuery()) {
        r.next();
        return r.getInt(1);
      }
    } catch (java.sql.SQLException e) {
      throw new AssertionError(e);
    }
  }
}
