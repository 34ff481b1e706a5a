package dev.protomolt.repository.purge;

import dev.protomolt.core.parts.ManifestJson;
import dev.protomolt.core.store.ObjectAddress;
import dev.protomolt.proto.repository.v1.PartManifestEntry;
import dev.protomolt.proto.repository.v1.PartState;
import dev.protomolt.proto.repository.v1.PipeDocManifest;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The purge proof of an upload intake deleted because it was declared right-to-be-forgotten
 * (decision 1749): a {@code pipedoc_purges} row like the store's, for an object that never had a
 * {@code pipedocs} row. Its node id is derived from the upload's bucket and key (there is no row
 * to name), its row kind is {@code UPLOAD}, its reason {@code RTBF}, and its manifest summary
 * names the key, version (as the entry's sub key) and SHA-256 of what was deleted, never the bytes.
 */
public final class UploadPurgeProofs {

  /** The row kind of an upload's proof: no ledger row ever existed for it. */
  public static final String UPLOAD = "UPLOAD";

  private static final String INSERT =
      "INSERT INTO pipedoc_purges (purge_id, purge_event_id, node_id, row_kind, account_id, doc_id,"
          + " graph_id, graph_address_id, drive_name, bucket, reason, checksum, size_bytes,"
          + " manifest_summary, row_created_at, tombstoned_at, purged_at) VALUES (?, ?, ?, ?, ?, ?,"
          + " ?, ?, ?, ?, 'RTBF', ?, ?, ?::jsonb, ?, ?, ?)";

  private static final String FIND =
      "SELECT 1 FROM pipedoc_purges WHERE purge_event_id = ? AND row_kind = '" + UPLOAD + "'";

  private final DataSource dataSource;

  public UploadPurgeProofs(DataSource dataSource) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
  }

  /**
   * What was deleted: the upload, the document it became and where it was admitted.
   *
   * @param sha256 hex SHA-256 of the deleted bytes
   * @param admittedAt when intake read it (plays the tombstone's part)
   */
  public record UploadProof(
      ObjectAddress upload,
      String accountId,
      String docId,
      String graphId,
      String datasourceId,
      String versionId,
      String sha256,
      long sizeBytes,
      Instant admittedAt) {}

  /** The proof's event id: one per document, so a redelivered intake finds the proof it wrote. */
  public static String eventIdOf(String docId) {
    return "rtbf-upload:" + docId;
  }

  /** Whether the upload of {@code docId} was already deleted with its proof. */
  public boolean recorded(String docId) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(FIND)) {
      s.setString(1, eventIdOf(docId));
      try (ResultSet r = s.executeQuery()) {
        return r.next();
      }
    } catch (SQLException e) {
      throw new IllegalStateException("reading the upload purge proof of doc '" + docId + "'", e);
    }
  }

  /** Appends the proof, once: a proof already recorded for the document is left as it is. */
  public void record(UploadProof proof, Instant purgedAt) {
    if (recorded(proof.docId())) {
      return;
    }
    ObjectAddress at = proof.upload();
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(INSERT)) {
      int i = 1;
      s.setObject(i++, UUID.randomUUID());
      s.setString(i++, eventIdOf(proof.docId()));
      s.setObject(i++, nodeIdOf(at));
      s.setString(i++, UPLOAD);
      s.setString(i++, proof.accountId());
      s.setString(i++, proof.docId());
      s.setString(i++, proof.graphId());
      s.setString(i++, proof.datasourceId());
      s.setString(i++, at.drive().name());
      s.setString(i++, at.drive().bucket());
      s.setString(i++, proof.sha256());
      s.setLong(i++, proof.sizeBytes());
      s.setString(i++, summary(proof));
      s.setTimestamp(i++, Timestamp.from(proof.admittedAt()));
      s.setTimestamp(i++, Timestamp.from(proof.admittedAt()));
      s.setTimestamp(i, Timestamp.from(purgedAt));
      s.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException(
          "recording the purge proof of upload " + at + " (doc '" + proof.docId() + "')", e);
    }
  }

  /** A stable id for an object that has no ledger row: the name-based UUID of its address. */
  static UUID nodeIdOf(ObjectAddress upload) {
    return UUID.nameUUIDFromBytes(
        ("upload:" + upload.drive().bucket() + "/" + upload.key())
            .getBytes(StandardCharsets.UTF_8));
  }

  /** The store's proof shape (decision 0900): one manifest entry for the one object deleted. */
  private static String summary(UploadProof p) {
    return ManifestJson.toJson(
        PipeDocManifest.newBuilder()
            .addEntries(
                PartManifestEntry.newBuilder()
                    .setObjectKey(p.upload().key())
                    .setSubKey(p.versionId())
                    .setSha256(p.sha256())
                    .setSizeBytes(p.sizeBytes())
                    .setState(PartState.PART_STATE_DELETED)
                    .setDeletedReason("RTBF"))
            .build());
  }
}
