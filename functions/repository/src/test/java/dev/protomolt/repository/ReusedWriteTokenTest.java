package dev.protomolt.repository;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Timestamp;
import dev.protomolt.core.store.LedgerStore;
import dev.protomolt.core.store.PipeDocRecord;
import dev.protomolt.core.store.SaveCommit;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.repository.fixtures.SampleDocs;
import dev.protomolt.repository.fixtures.Saves;
import dev.protomolt.repository.fixtures.StoreHarness;
import dev.protomolt.repository.postgres.PostgresAccountStatus;
import dev.protomolt.repository.s3.S3BlobStore;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * If the ledger ever handed one write token out twice, the second save's create-only PUT finds the
 * first save's object at its key: the save is refused, nothing is overwritten, and the stored
 * state still reads whole.
 */
class ReusedWriteTokenTest {

  private static final String ACME = "token-acme";

  private static StoreHarness h;

  @BeforeAll
  static void start() {
    h = StoreHarness.start();
    h.store.onAccountEvent(StoreHarness.platformAccount(ACME));
  }

  @AfterAll
  static void stop() {
    h.close();
  }

  /** The real ledger, except that every save gets the same token. */
  private record OneTokenLedger(LedgerStore ledger, long token) implements LedgerStore {
    @Override
    public Optional<PipeDocRecord> find(UUID nodeId) {
      return ledger.find(nodeId);
    }

    @Override
    public void upsert(PipeDocRecord record) {
      ledger.upsert(record);
    }

    @Override
    public long nextWriteToken() {
      return token;
    }

    @Override
    public SaveCommit commit(PipeDocRecord record, long writeToken, Instant at) {
      return ledger.commit(record, writeToken, at);
    }

    @Override
    public boolean tombstone(UUID nodeId, Instant at) {
      return ledger.tombstone(nodeId, at);
    }

    @Override
    public boolean tombstoneCacheCopy(
        UUID nodeId, Instant at, String manifestChecksum, Timestamp manifestUpdatedAt) {
      return ledger.tombstoneCacheCopy(nodeId, at, manifestChecksum, manifestUpdatedAt);
    }
  }

  @Test
  void aSaveWhoseKeysAreTakenIsRefusedAndOverwritesNothing() {
    PipeDocStore store =
        new PipeDocStore(
            new OneTokenLedger(h.ledger, h.ledger.nextWriteToken()),
            new S3BlobStore(h.clients),
            h.drives,
            new CachedAccountStatus(new PostgresAccountStatus(h.postgres.dataSource())),
            h.purgeEvents,
            Clock.fixed(StoreHarness.NOW, ZoneOffset.UTC));
    PipeDoc first = SampleDocs.document("doc-token", 1, 512, "set-a");
    DocumentReference ref =
        store.save(Saves.pipeline(ACME, "g", "parser", first).build()).getDocumentRef();

    PipeDoc second = SampleDocs.document("doc-token", 2, 700, "set-a");
    assertThatThrownBy(() -> store.save(Saves.pipeline(ACME, "g", "parser", second).build()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("write token collision")
        .hasMessageContaining("was not overwritten");

    assertThat(store.get(Saves.read(ref)).getPipedoc()).isEqualTo(first);
  }
}
