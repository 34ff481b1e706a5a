package dev.protomolt.repository;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.core.parts.Sha256Hex;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.repository.fixtures.SampleDocs;
import dev.protomolt.repository.fixtures.Saves;
import dev.protomolt.repository.fixtures.StoreHarness;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The store's byte-fidelity gate: every one of 1,000 documents reads back with its SHA-256. */
class BulkRoundTripTest {

  private static final int DOCUMENTS = 1_000;

  /** Enough saves in flight to keep two cores busy without swamping the shared machine. */
  private static final int IN_FLIGHT = 16;

  private static StoreHarness h;

  @BeforeAll
  static void start() {
    h = StoreHarness.start();
    h.store.onAccountEvent(StoreHarness.platformAccount("bulk"));
  }

  @AfterAll
  static void stop() throws Exception {
    h.close();
  }

  /** One document's input hash, where it was stored, and the hash it read back with. */
  record Trip(String docId, String sentSha256, DocumentReference ref, String readSha256) {}

  @Test
  void aThousandDocumentsRoundTripWithMatchingSha256() throws Exception {
    List<Future<Trip>> trips = new ArrayList<>();
    Semaphore permits = new Semaphore(IN_FLIGHT);
    try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < DOCUMENTS; i++) {
        int n = i;
        trips.add(
            executor.submit(
                () -> {
                  permits.acquire();
                  try {
                    // Vary the shape: some documents have no chunks, some two chunk sets.
                    String[] chunkSets =
                        switch (n % 3) {
                          case 0 -> new String[0];
                          case 1 -> new String[] {"chunker-a"};
                          default -> new String[] {"chunker-a", "embedder-b"};
                        };
                    PipeDoc doc = SampleDocs.document("bulk-" + n, n, 200 + n % 300, chunkSets);
                    String sent = Sha256Hex.of(doc.toByteArray());
                    DocumentReference ref =
                        (n % 2 == 0
                                ? h.store.save(Saves.intake("bulk", "crawler", doc).build())
                                : h.store.save(Saves.pipeline("bulk", "g", "parser", doc).build()))
                            .getDocumentRef();
                    PipeDoc read = h.store.get(Saves.read(ref)).getPipedoc();
                    return new Trip(doc.getDocId(), sent, ref, Sha256Hex.of(read.toByteArray()));
                  } finally {
                    permits.release();
                  }
                }));
      }
    }
    List<Trip> done = new ArrayList<>();
    for (Future<Trip> trip : trips) {
      done.add(trip.get());
    }
    assertThat(done).hasSize(DOCUMENTS);
    assertThat(done)
        .filteredOn(t -> !t.sentSha256().equals(t.readSha256()))
        .as("documents whose bytes changed in the store")
        .isEmpty();
    assertThat(done).extracting(t -> t.ref().getNodeId()).doesNotHaveDuplicates();
  }
}
