package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.data.v1.StreamMetadata;
import dev.protomolt.proto.module.v1.WorkDispatch;
import dev.protomolt.proto.repository.v1.GetPipeDocManifestRequest;
import dev.protomolt.proto.repository.v1.PipeDocManifest;
import dev.protomolt.proto.repository.v1.SavePipeDocRequest;
import dev.protomolt.repository.fixtures.StoreHarness;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Which keep flag the gateway saves a module's result with (decision 0815), on the real store
 * (S3Proxy + embedded PostgreSQL): the flag of the hop's own address, never of the reference it
 * read, so a CACHE pre-mapped input can never turn the node's PERSIST copy into a CACHE one.
 */
class StoreWorkDocumentsTest {

  static final String ACCOUNT = "acme";
  static final String GRAPH = "g-keep";
  static StoreHarness h;

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
  void aResultReadFromACachePreMappedCopyKeepsTheNodesPersistCopyPersistent() {
    DocumentReference node = save(doc("k-1", "original"), "parse", true);
    DocumentReference pre = save(doc("k-1", "pre-mapped"), "parse.pre", false);
    WorkDispatch dispatch = dispatch(pre).setResultKeep(node.getKeep()).build();

    DocumentReference result = saveResult(dispatch, doc("k-1", "module output"));

    assertThat(result.getGraphAddressId()).isEqualTo("parse");
    assertThat(result.getKeep()).as("the reference Complete receives").isTrue();
    assertThat(storedKeep(result)).as("the stored row at the node's address").isTrue();
  }

  @Test
  void aCacheNodeStaysCacheWhateverItRead() {
    save(doc("k-2", "original"), "parse", false);
    DocumentReference pre = save(doc("k-2", "pre-mapped"), "parse.pre", false);

    DocumentReference result =
        saveResult(dispatch(pre).setResultKeep(false).build(), doc("k-2", "out"));

    assertThat(result.getKeep()).isFalse();
    assertThat(storedKeep(result)).isFalse();
  }

  @Test
  void withoutResultKeepAForeignAddressIsNeverDowngradedToCache() {
    // A dispatch from an engine that does not set result_keep: the node's copy is the input's
    // own only when the input lives at the node's address; otherwise its staging is unknown and
    // the result is kept rather than risk a PERSIST copy.
    DocumentReference ownInput = save(doc("k-3", "original"), "parse", false);
    assertThat(saveResult(dispatch(ownInput).build(), doc("k-3", "out")).getKeep()).isFalse();

    save(doc("k-4", "original"), "parse", true);
    DocumentReference pre = save(doc("k-4", "pre-mapped"), "parse.pre", false);
    DocumentReference result = saveResult(dispatch(pre).build(), doc("k-4", "out"));
    assertThat(result.getKeep()).isTrue();
    assertThat(storedKeep(result)).isTrue();
  }

  @Test
  void anUnchangedResultOfTheHopsOwnCopyIsNotSavedAgain() {
    PipeDoc input = doc("k-5", "indexed as it is");
    DocumentReference own = save(input, "parse", true);
    PipeDocManifest before = manifest(own);

    DocumentReference result = saveResult(dispatch(own).setResultKeep(true).build(), input);

    assertThat(result).as("the input's own reference, handed on").isEqualTo(own);
    assertThat(manifest(own)).as("no new state: the same objects").isEqualTo(before);
  }

  @Test
  void anUnchangedResultIsSavedWhenItsInputIsNotTheHopsCopyWithItsKeepFlag() {
    PipeDoc input = doc("k-6", "unchanged");
    DocumentReference pre = save(input, "parse.pre", false);
    DocumentReference fromPre = saveResult(dispatch(pre).setResultKeep(true).build(), input);
    assertThat(fromPre.getGraphAddressId()).isEqualTo("parse");
    assertThat(storedKeep(fromPre)).isTrue();

    DocumentReference cacheOwn = save(doc("k-7", "unchanged"), "parse", false);
    PipeDocManifest before = manifest(cacheOwn);
    DocumentReference kept =
        saveResult(dispatch(cacheOwn).setResultKeep(true).build(), doc("k-7", "unchanged"));
    assertThat(storedKeep(kept)).as("a PERSIST result is never left as a CACHE copy").isTrue();
    assertThat(manifest(kept)).isNotEqualTo(before);
  }

  private static PipeDocManifest manifest(DocumentReference ref) {
    return h.store
        .getManifest(GetPipeDocManifestRequest.newBuilder().setDocumentRef(ref).build())
        .getManifest();
  }

  private static DocumentReference saveResult(WorkDispatch dispatch, PipeDoc processed) {
    StoreWorkDocuments documents = new StoreWorkDocuments(h.store);
    HydratedUnit served = documents.hydrate(dispatch);
    return documents.saveResult(dispatch, served, processed).getDocumentRef();
  }

  private static boolean storedKeep(DocumentReference ref) {
    return h.store
        .getManifest(GetPipeDocManifestRequest.newBuilder().setDocumentRef(ref).build())
        .getKeep();
  }

  private static DocumentReference save(PipeDoc doc, String address, boolean keep) {
    return h.store
        .save(
            SavePipeDocRequest.newBuilder()
                .setPipedoc(doc)
                .setAccountId(ACCOUNT)
                .setGraphId(GRAPH)
                .setGraphLocationId(address)
                .setKeep(keep)
                .build())
        .getDocumentRef();
  }

  private static WorkDispatch.Builder dispatch(DocumentReference input) {
    return WorkDispatch.newBuilder()
        .setWorkUnitId("wu-" + input.getDocId())
        .setTaskToken("t")
        .setModuleId("parser")
        .setNodeId("parse")
        .setGraphId(GRAPH)
        .setGraphVersion(1)
        .setClusterId("c1")
        .setStream(
            PipeStream.newBuilder()
                .setStreamId("s")
                .setCurrentNodeId("parse")
                .setMetadata(StreamMetadata.newBuilder().setAccountId(ACCOUNT))
                .setDocumentRef(input));
  }

  private static PipeDoc doc(String id, String body) {
    return PipeDoc.newBuilder()
        .setDocId(id)
        .setSearchMetadata(SearchMetadata.newBuilder().setTitle("t").setBody(body))
        .build();
  }
}
