package dev.protomolt.repository;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.parts.FixtureCorpus;
import dev.protomolt.core.parts.Sha256Hex;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.repository.fixtures.Saves;
import dev.protomolt.repository.fixtures.StoreHarness;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The codec's committed fixture corpus (odd doc ids, unknown fields, repeated chunk-set runs,
 * empty parts) through the real store: every document reads back with the SHA-256 of its committed
 * bytes, as an intake copy and as a pipeline copy.
 */
class FixtureCorpusStorageTest {

  private static StoreHarness h;

  @BeforeAll
  static void start() {
    h = StoreHarness.start();
    h.store.onAccountEvent(StoreHarness.platformAccount("corpus"));
  }

  @AfterAll
  static void stop() throws Exception {
    h.close();
  }

  @Test
  void everyCorpusDocumentRoundTripsThroughS3AndTheLedger() throws Exception {
    List<String> mismatched = new ArrayList<>();
    int stored = 0;
    Set<String> provisioned = new HashSet<>(List.of("corpus"));
    for (int i = 0; i < FixtureCorpus.size(); i++) {
      byte[] committed = FixtureCorpus.committedBytes(i);
      PipeDoc doc = PipeDoc.parseFrom(committed);
      // A document that names its owner is stored in that account, which must then exist.
      String account =
          doc.getOwnership().getAccountId().isEmpty()
              ? "corpus"
              : doc.getOwnership().getAccountId();
      if (provisioned.add(account)) {
        h.store.onAccountEvent(StoreHarness.platformAccount(account));
      }
      String refusedField =
          doc.getDocId().isBlank()
              ? "pipedoc.doc_id"
              : doc.getOwnership().getRightToBeForgotten()
                  ? "pipedoc.ownership.right_to_be_forgotten"
                  : null;
      if (refusedField != null) {
        // The codec handles these; the store must refuse them, naming why.
        assertThatThrownBy(() -> h.store.save(Saves.intake(account, "fixtures", doc).build()))
            .isInstanceOfSatisfying(
                PipeDocStoreException.InvalidRequest.class,
                e -> assertThat(e.field()).isEqualTo(refusedField));
        continue;
      }
      stored++;
      for (var save :
          List.of(
              Saves.intake(account, "fixtures", doc),
              Saves.pipeline(account, "corpus-graph", "parser", doc))) {
        DocumentReference ref = h.store.save(save.build()).getDocumentRef();
        byte[] read = h.store.get(Saves.read(ref)).getPipedoc().toByteArray();
        if (!Sha256Hex.of(read).equals(Sha256Hex.of(committed))) {
          mismatched.add(FixtureCorpus.name(i) + " via " + ref.getGraphId());
        }
      }
    }
    assertThat(mismatched).as("corpus documents whose bytes changed in the store").isEmpty();
    assertThat(stored).as("corpus documents the store accepts").isGreaterThanOrEqualTo(30);
  }
}
