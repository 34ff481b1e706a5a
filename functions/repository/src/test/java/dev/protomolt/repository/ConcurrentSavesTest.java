package dev.protomolt.repository;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.core.identity.NodeCoordinates;
import dev.protomolt.core.parts.ObjectKeys;
import dev.protomolt.core.parts.PipeDocPartCodec;
import dev.protomolt.core.parts.Sha256Hex;
import dev.protomolt.core.parts.SplitDocument;
import dev.protomolt.core.store.Drive;
import dev.protomolt.core.store.DriveKind;
import dev.protomolt.core.store.ObjectMissingException;
import dev.protomolt.core.store.PipeDocRecord;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeDocPart;
import dev.protomolt.proto.repository.v1.GetPipeDocResponse;
import dev.protomolt.proto.repository.v1.PartManifestEntry;
import dev.protomolt.proto.repository.v1.PartState;
import dev.protomolt.proto.repository.v1.PipeDocManifest;
import dev.protomolt.proto.repository.v1.SavePipeDocResponse;
import dev.protomolt.repository.fixtures.SampleDocs;
import dev.protomolt.repository.fixtures.Saves;
import dev.protomolt.repository.fixtures.StoreHarness;
import dev.protomolt.repository.postgres.PostgresAccountStatus;
import dev.protomolt.repository.reconcile.ReconcileReport;
import dev.protomolt.repository.reconcile.ReconcilerSettings;
import dev.protomolt.repository.reconcile.StorageReconciler;
import dev.protomolt.repository.s3.S3BlobStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Many saves of different contents at one address, with reads in between: every read sees one
 * complete stored state, the newest write token wins, and every state that lost its address is
 * reclaimed after the grace period and never before (decisions 1600 and 1601).
 */
class ConcurrentSavesTest {

  private static final String ACME = "hot-acme";
  private static final String GRAPH = "hot-graph";
  private static final int WRITERS = 8;
  private static final int SAVES_PER_WRITER = 200;
  private static final int READERS = 4;

  private static StoreHarness h;
  private static MovableClock clock;
  private static PipeDocStore store;
  private static S3BlobStore blobs;
  private static Drive pipeline;

  @BeforeAll
  static void start() {
    h = StoreHarness.start();
    // S3Proxy stamps objects with the real clock; starting here keeps the reconciler's listing
    // and the ledger's grace period on one time line.
    clock = new MovableClock(Instant.now().truncatedTo(ChronoUnit.SECONDS));
    blobs = new S3BlobStore(h.clients);
    store =
        new PipeDocStore(
            h.ledger,
            blobs,
            h.drives,
            new CachedAccountStatus(new PostgresAccountStatus(h.postgres.dataSource())),
            h.purgeEvents,
            clock);
    store.onAccountEvent(StoreHarness.platformAccount(ACME));
    pipeline = h.drives.find(ACME, DriveKind.PIPELINE).orElseThrow();
  }

  @AfterAll
  static void stop() {
    h.close();
  }

  private static PipeDoc content(String docId, int writer, int i) {
    long seed = writer * 100_000L + i + 1;
    // Different sizes and part layouts, so a torn state could not pass for a whole one.
    String[] chunkSets =
        switch (i % 3) {
          case 0 -> new String[] {"set-a"};
          case 1 -> new String[] {"set-a", "set-b"};
          default -> new String[] {};
        };
    return SampleDocs.document(docId, seed, 200 + (writer * 131 + i * 17) % 900, chunkSets);
  }

  @Test
  void concurrentSavesAtOneAddressNeverTearAndSupersededStatesWaitOutTheGracePeriod()
      throws Exception {
    String docId = "doc-hot";
    Map<String, PipeDoc> savedByChecksum = new ConcurrentHashMap<>();
    PipeDoc first = content(docId, WRITERS, 0);
    DocumentReference ref =
        store.save(Saves.pipeline(ACME, GRAPH, "parser", first).build()).getDocumentRef();
    savedByChecksum.put(manifestOf(ref).getChecksum(), first);

    AtomicBoolean writing = new AtomicBoolean(true);
    AtomicLong reads = new AtomicLong();
    CountDownLatch go = new CountDownLatch(1);
    List<Future<?>> writers = new ArrayList<>();
    List<Future<?>> readers = new ArrayList<>();
    try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        writers.add(
            pool.submit(
                () -> {
                  go.await();
                  for (int i = 0; i < SAVES_PER_WRITER; i++) {
                    PipeDoc doc = content(docId, writer, i);
                    // Registered before the save, so a reader can never see a state it does not
                    // know.
                    savedByChecksum.put(checksumOf(doc), doc);
                    store.save(Saves.pipeline(ACME, GRAPH, "parser", doc).build());
                  }
                  return null;
                }));
      }
      for (int r = 0; r < READERS; r++) {
        readers.add(
            pool.submit(
                () -> {
                  go.await();
                  do {
                    GetPipeDocResponse read = store.get(Saves.read(ref));
                    PipeDoc expected = savedByChecksum.get(read.getManifest().getChecksum());
                    assertThat(expected)
                        .as("the state a read returned was saved by someone")
                        .isNotNull();
                    assertThat(read.getPipedoc()).isEqualTo(expected);
                    reads.incrementAndGet();
                  } while (writing.get());
                  return null;
                }));
      }
      go.countDown();
      for (Future<?> f : writers) {
        f.get();
      }
      writing.set(false);
      for (Future<?> f : readers) {
        f.get();
      }
    }
    assertThat(reads.get()).isGreaterThanOrEqualTo(READERS);

    // The final state is whole, and it is the newest write's: every other save lost exactly once.
    UUID nodeId = UUID.fromString(ref.getNodeId());
    PipeDocRecord row = h.ledger.find(nodeId).orElseThrow();
    assertWhole(row.manifest());
    int saves = WRITERS * SAVES_PER_WRITER + 1;
    List<long[]> superseded = supersededTokens(nodeId);
    assertThat(superseded).hasSize(saves - 1);
    long finalToken = writeToken(nodeId);
    Set<Long> lost = new HashSet<>();
    for (long[] s : superseded) {
      assertThat(s[0]).isLessThan(finalToken);
      assertThat(lost.add(s[0])).as("write %d lost once", s[0]).isTrue();
    }
    for (PartManifestEntry e : row.manifest().getEntriesList()) {
      if (e.getState() == PartState.PART_STATE_PRESENT) {
        assertThat(e.getObjectKey()).contains("/" + ObjectKeys.writeSegment(finalToken) + "/");
      }
    }
    Set<String> supersededKeys = supersededKeys(nodeId);
    assertThat(supersededKeys).isNotEmpty();

    // One second short of the grace period nothing superseded is touched.
    StorageReconciler reconciler =
        new StorageReconciler(
            h.postgres.dataSource(), blobs, ReconcilerSettings.dryRun().deleting(), clock);
    clock.advance(ReconcilerSettings.MINIMUM_AGE.minusSeconds(1));
    ReconcileReport early = reconciler.reconcile(pipeline);
    assertThat(early.supersededReclaimed()).isZero();
    assertThat(early.deleted()).as("superseded objects are owned until reclaimed").isZero();
    Set<String> stored = storedKeysOf(nodeId);
    assertThat(stored).containsAll(supersededKeys);

    // Past it, every superseded state goes with its proof, and the live state stays readable.
    clock.advance(Duration.ofSeconds(2));
    ReconcileReport due = reconciler.reconcile(pipeline);
    assertThat(due.supersededReclaimed()).isEqualTo(saves - 1);
    assertThat(due.supersededNotDeleted()).isEmpty();
    assertThat(supersededTokens(nodeId)).isEmpty();
    assertThat(purgeProofs(nodeId)).isEqualTo(saves - 1);
    Set<String> live = new HashSet<>();
    row.manifest().getEntriesList().stream()
        .filter(e -> !e.getObjectKey().isBlank())
        .forEach(e -> live.add(e.getObjectKey()));
    assertThat(storedKeysOf(nodeId)).containsExactlyInAnyOrderElementsOf(live);
    assertThat(store.get(Saves.read(ref)).getPipedoc())
        .isEqualTo(savedByChecksum.get(row.manifest().getChecksum()));
  }

  @Test
  void aPartialSaveCarriesOneWholeStateOfASourceBeingRewritten() throws Exception {
    String docId = "doc-carried";
    int rounds = 40;
    // Every source state's non-CORE parts, as (part, sub key, SHA-256) lines.
    Set<Set<String>> sourceStates = ConcurrentHashMap.newKeySet();
    PipeDoc seed = content(docId, 0, 0);
    sourceStates.add(carriedParts(split(seed).manifest()));
    DocumentReference source =
        store.save(Saves.pipeline(ACME, GRAPH, "parser", seed).build()).getDocumentRef();
    CountDownLatch go = new CountDownLatch(1);
    List<Future<?>> all = new ArrayList<>();
    List<DocumentReference> targets = new ArrayList<>();
    try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int w = 0; w < 4; w++) {
        int writer = w;
        all.add(
            pool.submit(
                () -> {
                  go.await();
                  for (int i = 1; i <= rounds; i++) {
                    PipeDoc doc = content(docId, writer + 1, i);
                    sourceStates.add(carriedParts(split(doc).manifest()));
                    store.save(Saves.pipeline(ACME, GRAPH, "parser", doc).build());
                  }
                  return null;
                }));
      }
      for (int p = 0; p < 4; p++) {
        int carrier = p;
        all.add(
            pool.submit(
                () -> {
                  go.await();
                  for (int i = 0; i < rounds; i++) {
                    PipeDoc doc =
                        seed.toBuilder()
                            .setSearchMetadata(
                                seed.getSearchMetadata().toBuilder()
                                    .setTitle("carried " + carrier + "/" + i))
                            .build();
                    SavePipeDocResponse saved =
                        store.save(
                            Saves.partial(
                                    Saves.pipeline(ACME, GRAPH, "chunker-" + carrier, doc),
                                    source,
                                    PipeDocPart.PIPE_DOC_PART_CORE)
                                .build());
                    GetPipeDocResponse read = store.get(Saves.read(saved.getDocumentRef()));
                    assertThat(read.getPipedoc().getSearchMetadata().getTitle())
                        .startsWith("carried " + carrier + "/");
                    assertThat(sourceStates).contains(carriedParts(read.getManifest()));
                  }
                  return null;
                }));
        targets.add(
            PipeDocStore.reference(
                new NodeCoordinates(docId, "chunker-" + carrier, ACME, GRAPH), false));
      }
      go.countDown();
      for (Future<?> f : all) {
        f.get();
      }
    }
    for (DocumentReference target : targets) {
      PipeDocManifest stored = manifestOf(target);
      assertWhole(stored);
      assertThat(sourceStates).contains(carriedParts(stored));
    }
  }

  private static SplitDocument split(PipeDoc doc) {
    return new PipeDocPartCodec().split(UUID.randomUUID(), doc);
  }

  /** What a partial save writing CORE carries: every other entry's part, sub key and hash. */
  private static Set<String> carriedParts(PipeDocManifest manifest) {
    Set<String> parts = new HashSet<>();
    for (PartManifestEntry e : manifest.getEntriesList()) {
      if (e.getPart() != PipeDocPart.PIPE_DOC_PART_CORE) {
        parts.add(e.getPart() + "/" + e.getSubKey() + "/" + e.getState() + "/" + e.getSha256());
      }
    }
    return parts;
  }

  private static String checksumOf(PipeDoc doc) {
    return new PipeDocPartCodec().split(UUID.randomUUID(), doc).manifest().getChecksum();
  }

  private static PipeDocManifest manifestOf(DocumentReference ref) {
    return h.ledger.find(UUID.fromString(ref.getNodeId())).orElseThrow().manifest();
  }

  /** Every PRESENT entry's object is there with the recorded size and SHA-256. */
  private static void assertWhole(PipeDocManifest manifest) {
    for (PartManifestEntry e : manifest.getEntriesList()) {
      if (e.getState() != PartState.PART_STATE_PRESENT) {
        continue;
      }
      byte[] bytes;
      try {
        bytes = blobs.get(pipeline.address(e.getObjectKey().substring(pipeline.prefix().length())));
      } catch (ObjectMissingException missing) {
        throw new AssertionError("the manifest names " + e.getObjectKey() + " which is gone");
      }
      assertThat(bytes).hasSize((int) e.getSizeBytes());
      assertThat(Sha256Hex.of(bytes)).isEqualTo(e.getSha256());
    }
  }

  private static Set<String> storedKeysOf(UUID nodeId) {
    Set<String> keys = new HashSet<>();
    String prefix = pipeline.prefix() + nodeId + "/";
    blobs.list(
        pipeline,
        o -> {
          if (o.key().startsWith(prefix)) {
            keys.add(o.key());
          }
        });
    return keys;
  }

  private static long writeToken(UUID nodeId) throws SQLException {
    try (Connection c = h.postgres.dataSource().getConnection();
        PreparedStatement s =
            c.prepareStatement("SELECT write_token FROM pipedocs WHERE node_id = ?")) {
      s.setObject(1, nodeId);
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /** (write token, superseded by) of every superseded state of the node. */
  private static List<long[]> supersededTokens(UUID nodeId) throws SQLException {
    List<long[]> tokens = new ArrayList<>();
    try (Connection c = h.postgres.dataSource().getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT write_token, superseded_by FROM pipedoc_superseded WHERE node_id = ?")) {
      s.setObject(1, nodeId);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          tokens.add(new long[] {rs.getLong(1), rs.getLong(2)});
        }
      }
    }
    return tokens;
  }

  private static Set<String> supersededKeys(UUID nodeId) throws SQLException {
    Set<String> keys = new HashSet<>();
    try (Connection c = h.postgres.dataSource().getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT e->>'object_key' FROM pipedoc_superseded,"
                    + " jsonb_array_elements(manifest->'entries') e WHERE node_id = ?"
                    + " AND e->>'object_key' IS NOT NULL")) {
      s.setObject(1, nodeId);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          keys.add(rs.getString(1));
        }
      }
    }
    return keys;
  }

  private static long purgeProofs(UUID nodeId) throws SQLException {
    try (Connection c = h.postgres.dataSource().getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT count(*) FROM pipedoc_purges WHERE node_id = ?"
                    + " AND reason LIKE 'SUPERSEDED: %'")) {
      s.setObject(1, nodeId);
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }
}
