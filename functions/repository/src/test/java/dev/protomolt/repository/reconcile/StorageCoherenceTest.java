package dev.protomolt.repository.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.core.store.Drive;
import dev.protomolt.core.store.DriveKind;
import dev.protomolt.core.store.ObjectAddress;
import dev.protomolt.proto.repository.v1.PartManifestEntry;
import dev.protomolt.proto.repository.v1.SavePipeDocResponse;
import dev.protomolt.repository.fixtures.SampleDocs;
import dev.protomolt.repository.fixtures.Saves;
import dev.protomolt.repository.fixtures.StoreHarness;
import dev.protomolt.repository.s3.S3BlobStore;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The read-only coherence check over S3Proxy and PostgreSQL, with seeded incoherence. */
class StorageCoherenceTest {

  private static final String ACME = "coherence-acme";

  private static StoreHarness h;
  private static S3BlobStore blobs;
  private static Drive pipeline;

  // S3Proxy stamps objects with its own clock; two hours on, every seeded object is old enough.
  private static final Clock TWO_HOURS_ON = Clock.offset(Clock.systemUTC(), Duration.ofHours(2));

  @BeforeAll
  static void start() {
    h = StoreHarness.start();
    h.store.onAccountEvent(StoreHarness.platformAccount(ACME));
    blobs = new S3BlobStore(h.clients);
    pipeline = h.drives.find(ACME, DriveKind.PIPELINE).orElseThrow();
  }

  @AfterAll
  static void stop() throws Exception {
    h.close();
  }

  private static StorageCoherence coherence() {
    return new StorageCoherence(
        h.postgres.dataSource(),
        new StorageReconciler(
            h.postgres.dataSource(), blobs, ReconcilerSettings.dryRun().deleting(), TWO_HOURS_ON),
        50,
        TWO_HOURS_ON);
  }

  private static List<ObjectAddress> objectsOf(SavePipeDocResponse saved) {
    return saved.getManifest().getEntriesList().stream()
        .map(PartManifestEntry::getObjectKey)
        .filter(k -> !k.isBlank())
        .map(k -> new ObjectAddress(pipeline, k))
        .toList();
  }

  @Test
  void reportsTheSeededOrphanAndTheRowWhoseObjectIsGoneAndDeletesNothing() {
    SavePipeDocResponse intact =
        h.store.save(
            Saves.pipeline(ACME, "g", "parser", SampleDocs.document("doc-intact", 1, 256))
                .setKeep(true)
                .build());
    SavePipeDocResponse broken =
        h.store.save(
            Saves.pipeline(ACME, "g", "parser", SampleDocs.document("doc-broken", 1, 256))
                .setKeep(true)
                .build());
    // A row whose object someone deleted behind the store's back.
    ObjectAddress lost = objectsOf(broken).getFirst();
    assertThat(blobs.deleteAll(List.of(lost))).isEmpty();
    // A save that died after its PUT: an object of a node with no row.
    ObjectAddress orphan = pipeline.address(UUID.randomUUID() + "/core.pb");
    blobs.put(orphan, new byte[] {7}, false);

    CoherenceReport report = coherence().check(pipeline);

    assertThat(report.coherent()).isFalse();
    assertThat(report.driveName()).isEqualTo(ACME + ":pipeline");
    assertThat(report.rowsByStatus()).containsEntry("ACTIVE", 2L);
    assertThat(report.rowsChecked()).isEqualTo(2);
    assertThat(report.rowsMissingObjects()).isEqualTo(1);
    assertThat(report.missingSample())
        .containsExactly("doc-broken " + broken.getNodeId() + " " + lost.key());
    assertThat(report.orphans().orphans()).isEqualTo(1);
    assertThat(report.orphans().sample()).containsExactly(orphan.key());
    assertThat(report.orphans().dryRun()).isTrue();
    assertThat(report.orphans().deleted()).isZero();
    // Read-only, although the reconciler it judges with was configured to delete.
    assertThat(blobs.get(orphan)).containsExactly(7);
    for (ObjectAddress a : objectsOf(intact)) {
      assertThat(blobs.get(a)).isNotEmpty();
    }
  }
}
