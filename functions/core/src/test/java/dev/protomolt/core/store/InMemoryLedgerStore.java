package dev.protomolt.core.store;

import com.google.protobuf.Timestamp;
import dev.protomolt.core.identity.RowKind;
import dev.protomolt.proto.repository.v1.DocumentStatus;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * The ledger in a map, refusing the rows the database's row_kind constraint refuses, so code
 * tested against it cannot rely on storing what Postgres would not.
 */
public final class InMemoryLedgerStore implements LedgerStore {

  private final Map<UUID, PipeDocRecord> rows = new ConcurrentHashMap<>();
  private final Map<UUID, Long> tokens = new ConcurrentHashMap<>();
  private final AtomicLong lastToken = new AtomicLong();

  @Override
  public Optional<PipeDocRecord> find(UUID nodeId) {
    return Optional.ofNullable(rows.get(nodeId));
  }

  @Override
  public void upsert(PipeDocRecord r) {
    boolean intakeGraph = r.graphId().startsWith("intake:");
    boolean ok =
        r.rowKind() == RowKind.INTAKE
            ? r.graphId().equals("intake:" + r.accountId())
                && r.clusterId() == null
                && r.datasourceId() != null
                && r.graphAddressId().equals(r.datasourceId())
            : !intakeGraph;
    if (!ok) {
      throw new IllegalArgumentException(
          "violates chk_pipedocs_row_kind: " + r.rowKind() + " row with graph_id " + r.graphId());
    }
    rows.merge(
        r.nodeId(),
        r,
        (old, neu) ->
            new PipeDocRecord(
                neu.nodeId(),
                neu.rowKind(),
                neu.accountId(),
                neu.docId(),
                neu.graphId(),
                neu.graphAddressId(),
                neu.clusterId(),
                neu.driveName(),
                neu.status(),
                neu.manifest(),
                neu.checksum(),
                neu.sizeBytes(),
                neu.keep(),
                neu.crawlId(),
                neu.datasourceId(),
                neu.graphVersion(),
                old.createdAt(),
                neu.updatedAt()));
  }

  @Override
  public long nextWriteToken() {
    return lastToken.incrementAndGet();
  }

  @Override
  public synchronized SaveCommit commit(PipeDocRecord record, long writeToken, Instant at) {
    long stored = tokens.getOrDefault(record.nodeId(), 0L);
    PipeDocRecord existing = rows.get(record.nodeId());
    if (existing != null && stored > writeToken) {
      return new SaveCommit(false, existing);
    }
    upsert(record);
    tokens.put(record.nodeId(), writeToken);
    return new SaveCommit(true, rows.get(record.nodeId()));
  }

  @Override
  public boolean tombstone(UUID nodeId, Instant at) {
    return tombstoneIf(nodeId, at, r -> true);
  }

  @Override
  public boolean tombstoneCacheCopy(
      UUID nodeId, Instant at, String manifestChecksum, Timestamp manifestUpdatedAt) {
    return tombstoneIf(
        nodeId,
        at,
        r ->
            !r.keep()
                && r.manifest().getChecksum().equals(manifestChecksum)
                && r.manifest().getUpdatedAt().equals(manifestUpdatedAt));
  }

  private boolean tombstoneIf(UUID nodeId, Instant at, Predicate<PipeDocRecord> only) {
    boolean[] done = {false};
    rows.computeIfPresent(
        nodeId,
        (id, r) -> {
          if (r.status() != DocumentStatus.DOCUMENT_STATUS_ACTIVE || !only.test(r)) {
            return r;
          }
          done[0] = true;
          return new PipeDocRecord(
              r.nodeId(),
              r.rowKind(),
              r.accountId(),
              r.docId(),
              r.graphId(),
              r.graphAddressId(),
              r.clusterId(),
              r.driveName(),
              DocumentStatus.DOCUMENT_STATUS_PENDING_PURGE,
              r.manifest(),
              r.checksum(),
              r.sizeBytes(),
              r.keep(),
              r.crawlId(),
              r.datasourceId(),
              r.graphVersion(),
              r.createdAt(),
              at);
        });
    return done[0];
  }
}
