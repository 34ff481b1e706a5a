package dev.protomolt.repository;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.identity.NodeCoordinates;
import dev.protomolt.core.identity.NodeIds;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.repository.v1.GetPipeDocRequest;
import dev.protomolt.proto.repository.v1.PipeDocManifest;
import dev.protomolt.proto.repository.v1.SavePipeDocRequest;
import dev.protomolt.proto.repository.v1.SavePipeDocResponse;
import dev.protomolt.repository.fixtures.StoreHarness;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The exact-copy reclaim on Postgres and S3Proxy (decision 0817): only the CACHE stored state
 * whose manifest checksum and save time a request names is tombstoned, and the condition is part
 * of the tombstoning statement itself.
 */
class ReclaimCacheCopyTest {

  static final String ACME = "acme";
  static final String GRAPH = "g-reclaim";
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
  void aRequestForAnOlderCopyLeavesTheNewerCopyAtTheSameAddress() {
    NodeCoordinates at = new NodeCoordinates("c-1", "side", ACME, GRAPH);
    PipeDocManifest older = save("c-1", "first visit", false).getManifest();
    PipeDocManifest newer = save("c-1", "second visit", false).getManifest();
    h.purgeEvents.drain();

    // Even a caller that read the older copy before the newer save cannot take the newer one:
    // the statement that tombstones re-checks the identity.
    assertThat(
            h.ledger.tombstoneCacheCopy(
                NodeIds.nodeId(at), StoreHarness.NOW, older.getChecksum(), older.getUpdatedAt()))
        .isFalse();
    assertThat(h.store.reclaimCacheCopy(at, "RECLAIMED", older.getChecksum(), older.getUpdatedAt()))
        .isEmpty();
    assertThat(body(at)).isEqualTo("second visit");
    assertThat(h.purgeEvents.drain()).isEmpty();

    assertThat(h.store.reclaimCacheCopy(at, "RECLAIMED", newer.getChecksum(), newer.getUpdatedAt()))
        .isPresent();
    assertThatThrownBy(() -> body(at)).isInstanceOf(PipeDocStoreException.DocumentNotFound.class);
    assertThat(h.purgeEvents.drain())
        .singleElement()
        .satisfies(e -> assertThat(e.getReason()).isEqualTo("RECLAIMED"));
    assertThat(h.store.reclaimCacheCopy(at, "RECLAIMED", newer.getChecksum(), newer.getUpdatedAt()))
        .as("a redelivery finds nothing to take")
        .isEmpty();
  }

  @Test
  void aPersistCopyIsNeverTakenEvenWhenTheRequestNamesItExactly() {
    NodeCoordinates at = new NodeCoordinates("c-2", "archive", ACME, GRAPH);
    PipeDocManifest kept = save("c-2", "kept", true).getManifest();

    assertThat(h.store.reclaimCacheCopy(at, "RECLAIMED", kept.getChecksum(), kept.getUpdatedAt()))
        .isEmpty();
    assertThat(body(at)).isEqualTo("kept");
  }

  private static SavePipeDocResponse save(String docId, String body, boolean keep) {
    PipeDoc doc =
        PipeDoc.newBuilder()
            .setDocId(docId)
            .setSearchMetadata(SearchMetadata.newBuilder().setTitle("t").setBody(body))
            .build();
    String address = keep ? "archive" : "side";
    return h.store.save(
        SavePipeDocRequest.newBuilder()
            .setPipedoc(doc)
            .setAccountId(ACME)
            .setGraphId(GRAPH)
            .setGraphLocationId(address)
            .setKeep(keep)
            .build());
  }

  private static String body(NodeCoordinates at) {
    DocumentReference ref = PipeDocStore.reference(at, false);
    return h.store
        .get(GetPipeDocRequest.newBuilder().setDocumentRef(ref).build())
        .getPipedoc()
        .getSearchMetadata()
        .getBody();
  }
}
