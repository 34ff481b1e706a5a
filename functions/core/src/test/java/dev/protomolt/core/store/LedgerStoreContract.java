package dev.protomolt.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.identity.RowKind;
import dev.protomolt.proto.repository.v1.DocumentStatus;
import dev.protomolt.proto.repository.v1.PipeDocManifest;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What every {@link LedgerStore} does; each implementation's test extends this. Rows belong to
 * account {@code acme}, whose drives the implementation must have provisioned.
 */
public abstract class LedgerStoreContract {

  protected static final String ACCOUNT = "acme";
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  protected abstract LedgerStore ledger();

  protected static PipeDocRecord pipelineRow(UUID id, Instant at) {
    return new PipeDocRecord(
        id,
        RowKind.PIPELINE,
        ACCOUNT,
        "doc-1",
        "g1",
        "parser",
        "c1",
        ACCOUNT + ":pipeline",
        DocumentStatus.DOCUMENT_STATUS_ACTIVE,
        PipeDocManifest.newBuilder().setNodeId(id.toString()).setDocId("doc-1").build(),
        "a".repeat(64),
        42,
        false,
        "crawl",
        null,
        3,
        at,
        at);
  }

  @Test
  void writeTokensOnlyGrow() {
    long first = ledger().nextWriteToken();
    long second = ledger().nextWriteToken();
    assertThat(first).isPositive();
    assertThat(second).isGreaterThan(first);
  }

  @Test
  void theNewestWriteTokenWinsWhicheverCommitsFirst() {
    UUID id = UUID.randomUUID();
    long older = ledger().nextWriteToken();
    long newer = ledger().nextWriteToken();
    PipeDocRecord newerRow = pipelineRow(id, T0.plusSeconds(60));
    assertThat(ledger().commit(newerRow, newer, T0.plusSeconds(61)).applied()).isTrue();

    SaveCommit late = ledger().commit(pipelineRow(id, T0), older, T0.plusSeconds(62));

    assertThat(late.applied()).isFalse();
    assertThat(late.stored().updatedAt()).isEqualTo(T0.plusSeconds(60));
    assertThat(ledger().find(id).orElseThrow().updatedAt()).isEqualTo(T0.plusSeconds(60));
    long newest = ledger().nextWriteToken();
    SaveCommit next =
        ledger().commit(pipelineRow(id, T0.plusSeconds(120)), newest, T0.plusSeconds(121));
    assertThat(next.applied()).isTrue();
    assertThat(next.stored().updatedAt()).isEqualTo(T0.plusSeconds(120));
    assertThat(next.stored().createdAt()).isEqualTo(T0.plusSeconds(60));
  }

  @Test
  void anUnknownNodeIsAbsent() {
    assertThat(ledger().find(UUID.randomUUID())).isEmpty();
  }

  @Test
  void upsertReplacesTheRowButKeepsItsCreationTime() {
    UUID id = UUID.randomUUID();
    ledger().upsert(pipelineRow(id, T0));
    PipeDocRecord later = pipelineRow(id, T0.plusSeconds(60));
    ledger().upsert(later);

    PipeDocRecord found = ledger().find(id).orElseThrow();
    assertThat(found.createdAt()).isEqualTo(T0);
    assertThat(found.updatedAt()).isEqualTo(T0.plusSeconds(60));
    assertThat(found.manifest()).isEqualTo(later.manifest());
    assertThat(found.clusterId()).isEqualTo("c1");
    assertThat(found.datasourceId()).isNull();
  }

  @Test
  void aTombstoneHidesAnActiveRowOnce() {
    UUID id = UUID.randomUUID();
    ledger().upsert(pipelineRow(id, T0));

    assertThat(ledger().tombstone(id, T0.plusSeconds(1))).isTrue();
    assertThat(ledger().find(id).orElseThrow().status())
        .isEqualTo(DocumentStatus.DOCUMENT_STATUS_PENDING_PURGE);
    assertThat(ledger().tombstone(id, T0.plusSeconds(2))).isFalse();
    assertThat(ledger().tombstone(UUID.randomUUID(), T0)).isFalse();
  }

  @Test
  void anIntakeRowOutsideTheIntakeGraphIsRefused() {
    PipeDocRecord crossed =
        new PipeDocRecord(
            UUID.randomUUID(),
            RowKind.INTAKE,
            ACCOUNT,
            "d1",
            "pipeline-graph",
            "ds1",
            null,
            ACCOUNT + ":intake",
            DocumentStatus.DOCUMENT_STATUS_ACTIVE,
            PipeDocManifest.getDefaultInstance(),
            "a".repeat(64),
            1,
            true,
            null,
            "ds1",
            0,
            T0,
            T0);

    assertThatThrownBy(() -> ledger().upsert(crossed)).hasMessageContaining("row_kind");
    assertThat(ledger().find(crossed.nodeId())).isEmpty();
  }
}
