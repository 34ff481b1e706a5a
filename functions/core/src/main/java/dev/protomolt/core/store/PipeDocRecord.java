package dev.protomolt.core.store;

import dev.protomolt.core.identity.RowKind;
import dev.protomolt.proto.repository.v1.DocumentStatus;
import dev.protomolt.proto.repository.v1.PipeDocManifest;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * One ledger row: the identity of a stored state, where its parts live and what they are.
 *
 * @param clusterId null for intake rows
 * @param checksum lower-case hex SHA-256 of the whole serialized document
 * @param sizeBytes size of the whole serialized document
 */
public record PipeDocRecord(
    UUID nodeId,
    RowKind rowKind,
    String accountId,
    String docId,
    String graphId,
    String graphAddressId,
    String clusterId,
    String driveName,
    DocumentStatus status,
    PipeDocManifest manifest,
    String checksum,
    long sizeBytes,
    boolean keep,
    String crawlId,
    String datasourceId,
    long graphVersion,
    Instant createdAt,
    Instant updatedAt) {

  public PipeDocRecord {
    Objects.requireNonNull(nodeId, "nodeId");
    Objects.requireNonNull(rowKind, "rowKind");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(manifest, "manifest");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
  }
}
