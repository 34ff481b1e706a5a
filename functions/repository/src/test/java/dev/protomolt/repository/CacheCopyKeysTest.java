package dev.protomolt.repository;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.core.identity.NodeCoordinates;
import dev.protomolt.core.identity.NodeIds;
import dev.protomolt.core.store.DriveKind;
import dev.protomolt.names.StoragePrefix;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.repository.v1.GetPipeDocRequest;
import dev.protomolt.proto.repository.v1.PartManifestEntry;
import dev.protomolt.proto.repository.v1.SavePipeDocRequest;
import dev.protomolt.proto.repository.v1.SavePipeDocResponse;
import dev.protomolt.repository.fixtures.StoreHarness;
import dev.protomolt.repository.reconcile.ReconcileReport;
import dev.protomolt.repository.reconcile.ReconcilerSettings;
import dev.protomolt.repository.reconcile.StorageReconciler;
import dev.protomolt.repository.s3.S3BlobStore;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * Where CACHE and PERSIST copies land on S3Proxy: a CACHE copy under {@code cache/<drive
 * prefix>}, which the platform bucket's lifecycle rule expires, a PERSIST copy under the drive
 * prefix, which no rule touches; and the reconciler judges both layouts.
 */
class CacheCopyKeysTest {

  static final String ACME = "acme";
  static final String GRAPH = "g-keys";
  static StoreHarness h;

  @BeforeAll
  static void start() {
    h = StoreHarness.start();
    h.store.onAccountEvent(StoreHarness.platformAccount(ACME));
  }

  @AfterAll
  static void stop() throws Exception {
    h.close();
  }

  @Test
  void aCacheCopyIsKeyedUnderTheCachePrefixAndAPersistCopyUnderTheDrivePrefix() {
    SavePipeDocResponse cache = save("k-1", "side", false);
    SavePipeDocResponse persist = save("k-1", "archive", true);

    String drivePrefix = ACME + "/pipeline/";
    assertThat(cache.getManifest().getEntriesList())
        .isNotEmpty()
        .extracting(PartManifestEntry::getObjectKey)
        .filteredOn(k -> !k.isEmpty())
        .isNotEmpty()
        .allMatch(k -> k.startsWith(StoragePrefix.CACHE_STAGING + drivePrefix), "under cache/");
    assertThat(persist.getManifest().getEntriesList())
        .isNotEmpty()
        .extracting(PartManifestEntry::getObjectKey)
        .filteredOn(k -> !k.isEmpty())
        .isNotEmpty()
        .allMatch(k -> k.startsWith(drivePrefix), "under the drive prefix");
    // Both read back from where they were written.
    assertThat(
            h.store
                .get(GetPipeDocRequest.newBuilder().setDocumentRef(cache.getDocumentRef()).build())
                .getPipedoc()
                .getSearchMetadata()
                .getBody())
        .isEqualTo("body of side");
  }

  @Test
  void theReconcilerJudgesTheCacheLayoutToo() {
    SavePipeDocResponse cache = save("k-2", "side", false);
    String orphan =
        StoragePrefix.CACHE_STAGING
            + ACME
            + "/pipeline/"
            + NodeIds.nodeId(new NodeCoordinates("gone", "side", ACME, GRAPH))
            + "/core.pb";
    h.platform
        .adminClient()
        .putObject(
            b -> b.bucket(StoreHarness.PLATFORM_BUCKET).key(orphan), RequestBody.fromString("x"));
    StorageReconciler reconciler =
        new StorageReconciler(
            h.postgres.dataSource(),
            new S3BlobStore(h.clients),
            ReconcilerSettings.dryRun(),
            Clock.offset(Clock.system(ZoneOffset.UTC), Duration.ofDays(30)));

    ReconcileReport report =
        reconciler.reconcile(h.drives.find(ACME, DriveKind.PIPELINE).orElseThrow());

    assertThat(report.sample()).contains(orphan);
    assertThat(report.sample())
        .doesNotContainAnyElementsOf(
            cache.getManifest().getEntriesList().stream()
                .map(PartManifestEntry::getObjectKey)
                .toList());
  }

  private static SavePipeDocResponse save(String docId, String address, boolean keep) {
    PipeDoc doc =
        PipeDoc.newBuilder()
            .setDocId(docId)
            .setSearchMetadata(
                SearchMetadata.newBuilder().setTitle("t").setBody("body of " + address))
            .build();
    return h.store.save(
        SavePipeDocRequest.newBuilder()
            .setPipedoc(doc)
            .setAccountId(ACME)
            .setGraphId(GRAPH)
            .setGraphLocationId(address)
            .setKeep(keep)
            .build());
  }
}
