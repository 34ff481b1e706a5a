package dev.protomolt.engine.hop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.engine.reclaim.ReclaimService;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.events.v1.ReclaimRequest;
import dev.protomolt.repository.PipeDocStoreException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The reclaim consumer on the real document store (S3Proxy + embedded PostgreSQL, shared with the
 * hop tests, hence this package): raw record values in, CACHE copies tombstoned, PERSIST copies and
 * malformed records left alone with a reason.
 */
class ReclaimServiceTest {

  private final PipeDocStoreStaging staging = new PipeDocStoreStaging(RecordingStaging.store());
  private final ReclaimService reclaim = new ReclaimService(RecordingStaging.store());

  @Test
  void aConsumedCacheCopyIsReclaimedAndARedeliveredBatchChangesNothing() {
    DocumentReference cache = staging.stage(doc("r-1"), "acme", "g1", "side", false);
    List<byte[]> batch = List.of(request(cache).toByteArray());

    assertThat(reclaim.handle(batch)).isEqualTo(new ReclaimService.Report(1, 0, 0, List.of()));
    assertThatThrownBy(() -> staging.hydrate(cache, Set.of(), false))
        .isInstanceOf(PipeDocStoreException.DocumentNotFound.class);
    assertThat(reclaim.handle(batch))
        .as("idempotent")
        .isEqualTo(new ReclaimService.Report(0, 1, 0, List.of()));
  }

  @Test
  void aPersistCopyIsNeverReclaimedEvenWhenTheRequestClaimsItIsCache() {
    DocumentReference persist = staging.stage(doc("r-2"), "acme", "g1", "archive", true);
    ReclaimRequest lying = request(persist.toBuilder().setKeep(false).build());
    ReclaimRequest honest = request(persist);

    ReclaimService.Report report =
        reclaim.handle(List.of(lying.toByteArray(), honest.toByteArray()));

    assertThat(report.reclaimed()).isZero();
    assertThat(report.refused()).hasSize(2);
    assertThat(report.refused().get(0))
        .contains("record 0")
        .contains("is stored as PERSIST (keep=true)");
    assertThat(report.refused().get(1)).contains("record 1").contains("document_ref.keep is true");
    assertThat(staging.hydrate(persist, Set.of(), false).getDocId()).isEqualTo("r-2");
  }

  @Test
  void malformedRecordsAreReportedNamingTheFieldAndTheBatchGoesOn() {
    DocumentReference cache = staging.stage(doc("r-3"), "acme", "g1", "side", false);
    List<byte[]> batch =
        List.of(
            "not protobuf".getBytes(StandardCharsets.UTF_8),
            ReclaimRequest.newBuilder().setWorkUnitId("wu-1").build().toByteArray(),
            request(cache).toBuilder()
                .setDocumentRef(cache.toBuilder().setDocId(""))
                .build()
                .toByteArray(),
            request(cache).toByteArray());

    ReclaimService.Report report = reclaim.handle(batch);

    assertThat(report.reclaimed()).isEqualTo(1);
    assertThat(report.refused()).hasSize(3);
    assertThat(report.refused().get(0)).startsWith("record 0: value is not a ReclaimRequest");
    assertThat(report.refused().get(1))
        .contains("work unit 'wu-1'")
        .contains("document_ref is required");
    assertThat(report.refused().get(2)).contains("document_ref.doc_id");
  }

  @Test
  void aRequestThatDoesNotNameTheExactCopyIsRefusedAndTheCopyStays() {
    DocumentReference cache = staging.stage(doc("r-4"), "acme", "g1", "side", false);
    ReclaimRequest exact = request(cache);

    ReclaimService.Report report =
        reclaim.handle(
            List.of(
                exact.toBuilder().clearExpectedChecksum().build().toByteArray(),
                exact.toBuilder().clearExpectedUpdatedAt().build().toByteArray()));

    assertThat(report.reclaimed()).isZero();
    assertThat(report.refused()).hasSize(2);
    assertThat(report.refused().get(0)).contains("expected_checksum is required");
    assertThat(report.refused().get(1)).contains("expected_updated_at is required");
    assertThat(staging.hydrate(cache, Set.of(), false).getDocId()).isEqualTo("r-4");
  }

  /** A request as Complete builds it: the reference plus the manifest identity of that exact copy. */
  private ReclaimRequest request(DocumentReference ref) {
    ReclaimRequest.Builder r =
        ReclaimRequest.newBuilder()
            .setDocumentRef(ref)
            .setWorkUnitId("wu-" + ref.getDocId())
            .setReason("CACHE input consumed by work unit wu-" + ref.getDocId());
    staging
        .activeManifest(ref.toBuilder().setKeep(false).build())
        .ifPresent(
            m -> r.setExpectedChecksum(m.getChecksum()).setExpectedUpdatedAt(m.getUpdatedAt()));
    return r.build();
  }

  private static PipeDoc doc(String id) {
    return PipeDoc.newBuilder()
        .setDocId(id)
        .setSearchMetadata(SearchMetadata.newBuilder().setTitle("t"))
        .build();
  }
}
