package dev.protomolt.repository.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.store.Drive;
import dev.protomolt.core.store.DriveKind;
import dev.protomolt.core.store.ObjectAddress;
import dev.protomolt.core.store.ObjectMissingException;
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

class StorageReconcilerTest {

  private static final String ACME = "reconcile-acme";

  private static StoreHarness h;
  private static S3BlobStore blobs;
  private static Drive pipeline;

  /** A second account, so the sample test's objects do not land in the first test's drive. */
  private static Drive other;

  // S3Proxy stamps objects with its own (real) clock, so "later" is that clock moved forward.
  private static final Clock TWO_HOURS_ON = Clock.offset(Clock.systemUTC(), Duration.ofHours(2));

  @BeforeAll
  static void start() {
    h = StoreHarness.start();
    h.store.onAccountEvent(StoreHarness.platformAccount(ACME));
    blobs = new S3BlobStore(h.clients);
    pipeline = h.drives.find(ACME, DriveKind.PIPELINE).orElseThrow();
    h.store.onAccountEvent(StoreHarness.platformAccount("reconcile-other"));
    other = h.drives.find("reconcile-other", DriveKind.PIPELINE).orElseThrow();
  }

  @AfterAll
  static void stop() throws Exception {
    h.close();
  }

  private static boolean exists(ObjectAddress a) {
    try {
      blobs.get(a);
      return true;
    } catch (ObjectMissingException e) {
      return false;
    }
  }

  @Test
  void orphansAreReportedInADryRunAndDeletedOnlyWhenAskedAndOldEnough() {
    SavePipeDocResponse live =
        h.store.save(
            Saves.pipeline(
                    ACME, "g", "parser", SampleDocs.document("doc-live", 1, 256, "chunker-a"))
                .build());
    // A later save of the same node dropped a chunk set: its object is left behind.
    ObjectAddress droppedChunkSet = pipeline.address(live.getNodeId() + "/chunks/old-set.pb");
    // A save that died after its PUTs: objects of a node with no row.
    ObjectAddress deadSave = pipeline.address(UUID.randomUUID() + "/core.pb");
    // Not the store's layout at all: never judged.
    ObjectAddress foreign = pipeline.address("raw/upload.bin");
    for (ObjectAddress a : List.of(droppedChunkSet, deadSave, foreign)) {
      blobs.put(a, new byte[] {7}, false);
    }
    List<ObjectAddress> liveObjects =
        live.getManifest().getEntriesList().stream()
            .map(PartManifestEntry::getObjectKey)
            .filter(k -> !k.isBlank())
            .map(k -> new ObjectAddress(pipeline, k))
            .toList();

    ReconcileReport young =
        new StorageReconciler(
                h.postgres.dataSource(),
                blobs,
                ReconcilerSettings.dryRun().deleting(),
                Clock.systemUTC())
            .reconcile(pipeline);
    assertThat(young.orphans()).as("nothing is an hour old yet").isZero();
    assertThat(young.young()).isEqualTo(liveObjects.size() + 2);

    ReconcileReport dry =
        new StorageReconciler(
                h.postgres.dataSource(), blobs, ReconcilerSettings.dryRun(), TWO_HOURS_ON)
            .reconcile(pipeline);
    assertThat(dry.dryRun()).isTrue();
    assertThat(dry.orphans()).isEqualTo(2);
    assertThat(dry.sample()).containsExactlyInAnyOrder(droppedChunkSet.key(), deadSave.key());
    assertThat(dry.foreign()).isEqualTo(1);
    assertThat(dry.owned()).isEqualTo(liveObjects.size());
    assertThat(dry.deleted()).isZero();
    assertThat(exists(deadSave)).isTrue();

    ReconcileReport wet =
        new StorageReconciler(
                h.postgres.dataSource(),
                blobs,
                ReconcilerSettings.dryRun().deleting(),
                TWO_HOURS_ON)
            .reconcile(pipeline);
    assertThat(wet.deleted()).isEqualTo(2);
    assertThat(exists(deadSave)).isFalse();
    assertThat(exists(droppedChunkSet)).isFalse();
    assertThat(exists(foreign)).isTrue();
    assertThat(liveObjects).allMatch(StorageReconcilerTest::exists);
    assertThat(h.store.get(Saves.read(live.getDocumentRef())).getPipedoc().getDocId())
        .isEqualTo("doc-live");
  }

  @Test
  void theSampleIsCappedAndUnsafeSettingsAreRefused() {
    ReconcilerSettings two = new ReconcilerSettings(false, Duration.ofHours(1), 2);
    for (int i = 0; i < 3; i++) {
      blobs.put(other.address(UUID.randomUUID() + "/parsed.pb"), new byte[] {1}, false);
    }
    ReconcileReport report =
        new StorageReconciler(h.postgres.dataSource(), blobs, two, TWO_HOURS_ON).reconcile(other);
    assertThat(report.orphans()).isEqualTo(3);
    assertThat(report.sample()).hasSize(2);

    assertThat(ReconcilerSettings.dryRun().sampleSize()).isEqualTo(50);
    assertThat(ReconcilerSettings.dryRun().deleteOrphans()).isFalse();
    assertThatThrownBy(() -> new ReconcilerSettings(true, Duration.ofMinutes(59), 50))
        .hasMessageContaining("minimum_age must be at least PT1H");
    assertThatThrownBy(() -> new ReconcilerSettings(false, Duration.ofHours(1), 0))
        .hasMessageContaining("sample_size");
  }
}
