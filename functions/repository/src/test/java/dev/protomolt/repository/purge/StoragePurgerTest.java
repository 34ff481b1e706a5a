package dev.protomolt.repository.purge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.parts.ManifestJson;
import dev.protomolt.core.store.Drive;
import dev.protomolt.core.store.DriveKind;
import dev.protomolt.core.store.ObjectAddress;
import dev.protomolt.core.store.ObjectMissingException;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.events.v1.DeletionReason;
import dev.protomolt.proto.events.v1.DocumentDeleted;
import dev.protomolt.proto.events.v1.ReclaimRequest;
import dev.protomolt.proto.events.v1.StoragePurgeEvent;
import dev.protomolt.proto.repository.v1.DeletePipeDocRequest;
import dev.protomolt.proto.repository.v1.DeletePipeDocResponse;
import dev.protomolt.proto.repository.v1.DocumentStatus;
import dev.protomolt.proto.repository.v1.GetPipeDocManifestRequest;
import dev.protomolt.proto.repository.v1.PartManifestEntry;
import dev.protomolt.proto.repository.v1.PartState;
import dev.protomolt.proto.repository.v1.PipeDocManifest;
import dev.protomolt.proto.repository.v1.SavePipeDocResponse;
import dev.protomolt.repository.PipeDocStoreException;
import dev.protomolt.repository.fixtures.SampleDocs;
import dev.protomolt.repository.fixtures.Saves;
import dev.protomolt.repository.fixtures.StoreHarness;
import dev.protomolt.repository.s3.S3BlobStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class StoragePurgerTest {

  private static final String ACME = "purge-acme";
  private static final String GRAPH = "news-graph";

  private static StoreHarness h;
  private static StoragePurger purger;
  private static DeletionRequests deletions;
  private static S3BlobStore blobs;

  @BeforeAll
  static void start() {
    h = StoreHarness.start();
    h.store.onAccountEvent(StoreHarness.platformAccount(ACME));
    blobs = new S3BlobStore(h.clients);
    purger =
        new StoragePurger(
            h.postgres.dataSource(),
            blobs,
            h.drives,
            Clock.fixed(StoreHarness.NOW.plusSeconds(60), ZoneOffset.UTC));
    deletions = new DeletionRequests(h.store);
  }

  @AfterAll
  static void stop() throws Exception {
    h.close();
  }

  @BeforeEach
  void clean() {
    h.purgeEvents.drain();
    h.counter.reset();
  }

  private SavePipeDocResponse save(String docId, String node, boolean keep) {
    PipeDoc doc = SampleDocs.document(docId, docId.hashCode(), 2048, "chunker-a", "chunker-b");
    return h.store.save(Saves.pipeline(ACME, GRAPH, node, doc).setKeep(keep).build());
  }

  private List<ObjectAddress> objects(PipeDocManifest manifest) {
    Drive drive = h.drives.find(ACME, DriveKind.PIPELINE).orElseThrow();
    return manifest.getEntriesList().stream()
        .filter(e -> e.getState() == PartState.PART_STATE_PRESENT)
        .map(e -> new ObjectAddress(drive, e.getObjectKey()))
        .toList();
  }

  private static boolean exists(ObjectAddress a) {
    try {
      blobs.get(a);
      return true;
    } catch (ObjectMissingException e) {
      return false;
    }
  }

  private DocumentStatus status(DocumentReference ref) {
    return h.store
        .getManifest(GetPipeDocManifestRequest.newBuilder().setDocumentRef(ref).build())
        .getStatus();
  }

  @Test
  void deleteTombstonesEmitsAnEventAndThePurgerDeletesObjectsAndWritesProof() throws Exception {
    SavePipeDocResponse saved = save("doc-purged", "parser", true);
    List<ObjectAddress> objects = objects(saved.getManifest());
    assertThat(objects).hasSize(5).allMatch(StoragePurgerTest::exists);

    DeletePipeDocResponse deleted =
        h.store.delete(
            DeletePipeDocRequest.newBuilder()
                .setDocumentRef(saved.getDocumentRef())
                .setReason("USER")
                .build());

    assertThat(deleted.getTombstoned()).isTrue();
    assertThat(status(saved.getDocumentRef()))
        .isEqualTo(DocumentStatus.DOCUMENT_STATUS_PENDING_PURGE);
    assertThatThrownBy(() -> h.store.get(Saves.read(saved.getDocumentRef())))
        .isInstanceOf(PipeDocStoreException.DocumentNotFound.class);
    List<StoragePurgeEvent> events = h.purgeEvents.drain();
    assertThat(events)
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.getPurgeEventId()).isEqualTo(deleted.getPurgeEventId());
              assertThat(e.getNodeId()).isEqualTo(saved.getNodeId());
              assertThat(e.getDriveName()).isEqualTo(ACME + ":pipeline");
              assertThat(e.getObjectKeysList())
                  .containsExactlyInAnyOrderElementsOf(
                      objects.stream().map(ObjectAddress::key).toList());
            });
    assertThat(objects).as("tombstoning deletes nothing yet").allMatch(StoragePurgerTest::exists);

    PurgeReport report = purger.purge(events);

    assertThat(report.purged()).containsExactly(UUID.fromString(saved.getNodeId()));
    assertThat(objects).noneMatch(StoragePurgerTest::exists);
    assertThat(h.counter.calls("DeleteObjects")).isEqualTo(1);
    assertThat(status(saved.getDocumentRef())).isEqualTo(DocumentStatus.DOCUMENT_STATUS_PURGED);
    List<Proof> proofs = proofs(saved.getNodeId());
    assertThat(proofs)
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.purgeEventId()).isEqualTo(deleted.getPurgeEventId());
              assertThat(p.reason()).isEqualTo("USER");
              assertThat(p.checksum()).isEqualTo(saved.getManifest().getChecksum());
              assertThat(p.summary().getEntriesList())
                  .extracting(PartManifestEntry::getSha256)
                  .containsExactlyElementsOf(
                      saved.getManifest().getEntriesList().stream()
                          .map(PartManifestEntry::getSha256)
                          .toList());
              assertThat(p.summary().getEntriesList()).noneMatch(PartManifestEntry::hasWrittenBy);
            });
  }

  @Test
  void aRowRevivedBetweenTombstoneAndPurgeVoidsTheEvent() throws Exception {
    SavePipeDocResponse saved = save("doc-revived", "parser", true);
    h.store.delete(
        DeletePipeDocRequest.newBuilder().setDocumentRef(saved.getDocumentRef()).build());
    List<StoragePurgeEvent> events = h.purgeEvents.drain();
    SavePipeDocResponse revived = save("doc-revived", "parser", true);

    PurgeReport report = purger.purge(events);

    assertThat(report.voided()).containsExactly(UUID.fromString(saved.getNodeId()));
    assertThat(report.purged()).isEmpty();
    assertThat(h.counter.calls("DeleteObjects")).isZero();
    assertThat(objects(revived.getManifest())).allMatch(StoragePurgerTest::exists);
    assertThat(h.store.get(Saves.read(revived.getDocumentRef())).getPipedoc().getDocId())
        .isEqualTo("doc-revived");
    assertThat(proofs(saved.getNodeId())).isEmpty();
  }

  @Test
  void everyPurgeOfOneIdentityKeepsItsOwnProofAndADuplicateEventPurgesOnce() throws Exception {
    for (int round = 0; round < 2; round++) {
      SavePipeDocResponse saved = save("doc-twice", "sink", false);
      h.store.delete(
          DeletePipeDocRequest.newBuilder().setDocumentRef(saved.getDocumentRef()).build());
      List<StoragePurgeEvent> events = h.purgeEvents.drain();
      List<StoragePurgeEvent> redelivered = new ArrayList<>(events);
      redelivered.addAll(events);
      PurgeReport report = purger.purge(redelivered);
      assertThat(report.purged()).hasSize(1);
      // A later redelivery finds the row already PURGED.
      assertThat(purger.purge(events).voided()).hasSize(1);
    }
    String nodeId = save("doc-twice", "sink", false).getNodeId();
    List<Proof> proofs = proofs(nodeId);
    assertThat(proofs).hasSize(2);
    assertThat(proofs.get(0).purgeId()).isNotEqualTo(proofs.get(1).purgeId());
  }

  @Test
  void theProofLedgerIsAppendOnly() throws Exception {
    SavePipeDocResponse saved = save("doc-audited", "parser", true);
    h.store.delete(
        DeletePipeDocRequest.newBuilder().setDocumentRef(saved.getDocumentRef()).build());
    purger.purge(h.purgeEvents.drain());
    try (Connection c = h.postgres.dataSource().getConnection()) {
      assertThatThrownBy(
              () ->
                  c.createStatement()
                      .executeUpdate(
                          "UPDATE pipedoc_purges SET reason = 'x' WHERE node_id = '"
                              + saved.getNodeId()
                              + "'"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("append-only");
      assertThatThrownBy(
              () ->
                  c.createStatement()
                      .executeUpdate(
                          "DELETE FROM pipedoc_purges WHERE node_id = '" + saved.getNodeId() + "'"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("append-only");
    }
    assertThat(proofs(saved.getNodeId())).hasSize(1);
  }

  @Test
  void malformedPurgeEventsAreReportedNamingTheFieldAndDoNotStopTheBatch() {
    SavePipeDocResponse saved = save("doc-among-bad", "parser", true);
    h.store.delete(
        DeletePipeDocRequest.newBuilder().setDocumentRef(saved.getDocumentRef()).build());
    List<StoragePurgeEvent> batch = new ArrayList<>();
    batch.add(StoragePurgeEvent.newBuilder().setPurgeEventId("e1").setNodeId("not-a-uuid").build());
    batch.add(StoragePurgeEvent.newBuilder().setNodeId(UUID.randomUUID().toString()).build());
    batch.addAll(h.purgeEvents.drain());

    PurgeReport report = purger.purge(batch);

    assertThat(report.rejected()).hasSize(2);
    assertThat(report.rejected().get(0)).contains("node_id must be a UUID");
    assertThat(report.rejected().get(1)).contains("purge_event_id must not be blank");
    assertThat(report.purged()).containsExactly(UUID.fromString(saved.getNodeId()));
  }

  /** A reclaim request naming the exact saved copy, as the engine builds it (decision 0817). */
  private static ReclaimRequest.Builder exact(SavePipeDocResponse saved) {
    return ReclaimRequest.newBuilder()
        .setDocumentRef(saved.getDocumentRef())
        .setExpectedChecksum(saved.getManifest().getChecksum())
        .setExpectedUpdatedAt(saved.getManifest().getUpdatedAt());
  }

  @Test
  void reclaimFreesCacheBodiesOnlyAndExplicitDeletesTakePersistOnesNamingBadFields() {
    SavePipeDocResponse cache = save("doc-cache", "embedder", false);
    SavePipeDocResponse persist = save("doc-persist", "embedder", true);

    DeletionRequests.DeletionReport reclaimed =
        deletions.reclaim(
            List.of(
                exact(cache).build(),
                exact(persist).build(),
                exact(cache)
                    .setDocumentRef(cache.getDocumentRef().toBuilder().setGraphId(""))
                    .build(),
                exact(cache).clearExpectedUpdatedAt().build()));

    assertThat(reclaimed.purgeEventIds()).hasSize(1);
    assertThat(reclaimed.unchanged()).isEqualTo(1);
    assertThat(reclaimed.rejected()).hasSize(2);
    assertThat(reclaimed.rejected().get(0)).contains("event 2").contains("document_ref.graph_id");
    assertThat(reclaimed.rejected().get(1)).contains("event 3").contains("expected_updated_at");
    assertThat(status(cache.getDocumentRef()))
        .isEqualTo(DocumentStatus.DOCUMENT_STATUS_PENDING_PURGE);
    assertThat(status(persist.getDocumentRef())).isEqualTo(DocumentStatus.DOCUMENT_STATUS_ACTIVE);
    assertThat(h.purgeEvents.drain())
        .singleElement()
        .satisfies(e -> assertThat(e.getReason()).startsWith("RECLAIM"));

    DeletionRequests.DeletionReport deleted =
        deletions.delete(
            List.of(
                DocumentDeleted.newBuilder()
                    .setDocumentRef(persist.getDocumentRef())
                    .setReason(DeletionReason.DELETION_REASON_RTBF)
                    .build()));

    assertThat(deleted.purgeEventIds()).hasSize(1);
    assertThat(status(persist.getDocumentRef()))
        .isEqualTo(DocumentStatus.DOCUMENT_STATUS_PENDING_PURGE);
    assertThat(h.purgeEvents.drain())
        .singleElement()
        .satisfies(e -> assertThat(e.getReason()).isEqualTo("RTBF"));
  }

  @Test
  void deleteObjectsNamesAtMostOneThousandKeysPerRequest() {
    Drive drive = h.drives.find(ACME, DriveKind.PIPELINE).orElseThrow();
    List<ObjectAddress> many = new ArrayList<>();
    List<Callable<Void>> puts = new ArrayList<>();
    for (int i = 0; i < 1001; i++) {
      ObjectAddress a = drive.address("bulk/" + i + ".pb");
      many.add(a);
      puts.add(
          () -> {
            blobs.put(a, new byte[] {1}, false);
            return null;
          });
    }
    try (var pool = Executors.newFixedThreadPool(8)) {
      pool.invokeAll(puts);
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
    h.counter.reset();

    assertThat(blobs.deleteAll(many)).isEmpty();

    assertThat(h.counter.calls("DeleteObjects")).isEqualTo(2);
    assertThat(exists(many.get(0))).isFalse();
    assertThat(exists(many.get(1000))).isFalse();
  }

  @Test
  void aTombstoneWhosePublishWasLostIsAnnouncedAgainAfterTheGracePeriod() {
    SavePipeDocResponse saved = save("doc-lost-publish", "parser", true);
    UUID nodeId = UUID.fromString(saved.getNodeId());
    // The tombstone committed but its event never reached the topic.
    h.ledger.tombstone(nodeId, StoreHarness.NOW);
    List<ObjectAddress> objects = objects(saved.getManifest());

    TombstoneReannouncer tooSoon =
        new TombstoneReannouncer(
            h.postgres.dataSource(),
            h.ledger,
            h.purgeEvents,
            Duration.ofMinutes(10),
            Clock.fixed(StoreHarness.NOW.plusSeconds(60), ZoneOffset.UTC));
    // Other tests of this class leave tombstones too, so only this row's events are looked at.
    tooSoon.reannounce(100);
    assertThat(h.purgeEvents.drain()).noneMatch(e -> e.getNodeId().equals(saved.getNodeId()));

    TombstoneReannouncer later =
        new TombstoneReannouncer(
            h.postgres.dataSource(),
            h.ledger,
            h.purgeEvents,
            Duration.ofMinutes(10),
            Clock.fixed(StoreHarness.NOW.plusSeconds(3600), ZoneOffset.UTC));
    assertThat(later.reannounce(100)).isPositive();
    List<StoragePurgeEvent> events =
        h.purgeEvents.drain().stream()
            .filter(e -> e.getNodeId().equals(saved.getNodeId()))
            .toList();
    assertThat(events)
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.getReason()).isEqualTo("REANNOUNCED");
              assertThat(e.getObjectKeysCount()).isEqualTo(objects.size());
            });

    assertThat(purger.purge(events).purged()).containsExactly(nodeId);
    assertThat(objects).noneMatch(StoragePurgerTest::exists);
    later.reannounce(100);
    assertThat(h.purgeEvents.drain())
        .as("a purged row is not stuck")
        .noneMatch(e -> e.getNodeId().equals(saved.getNodeId()));
    assertThatThrownBy(
            () ->
                new TombstoneReannouncer(
                    h.postgres.dataSource(),
                    h.ledger,
                    h.purgeEvents,
                    Duration.ofSeconds(5),
                    Clock.systemUTC()))
        .hasMessageContaining("grace must be at least PT1M");
  }

  private record Proof(
      UUID purgeId, String purgeEventId, String reason, String checksum, PipeDocManifest summary) {}

  private static List<Proof> proofs(String nodeId) throws SQLException {
    List<Proof> proofs = new ArrayList<>();
    try (Connection c = h.postgres.dataSource().getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT purge_id, purge_event_id, reason,"
                    + " checksum, manifest_summary FROM pipedoc_purges WHERE node_id = ?"
                    + " ORDER BY purged_at, purge_id")) {
      s.setObject(1, UUID.fromString(nodeId));
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          proofs.add(
              new Proof(
                  rs.getObject(1, UUID.class),
                  rs.getString(2),
                  rs.getString(3),
                  rs.getString(4),
                  ManifestJson.fromJson(rs.getString(5))));
        }
      }
    }
    return proofs;
  }
}
