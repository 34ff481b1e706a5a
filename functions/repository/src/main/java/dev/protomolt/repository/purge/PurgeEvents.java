package dev.protomolt.repository.purge;

import com.google.protobuf.Timestamp;
import dev.protomolt.core.store.PipeDocRecord;
import dev.protomolt.proto.events.v1.StoragePurgeEvent;
import dev.protomolt.proto.repository.v1.PartManifestEntry;
import java.time.Instant;
import java.util.UUID;

/** The one way a tombstoned row's {@link StoragePurgeEvent} is built. */
public final class PurgeEvents {

  private PurgeEvents() {}

  /**
   * The event for {@code row}, tombstoned at {@code at}. It lists every object the manifest names,
   * in any state: a DELETED entry may still name an object (a settled source's husk).
   */
  public static StoragePurgeEvent of(PipeDocRecord row, String reason, Instant at) {
    StoragePurgeEvent.Builder event =
        StoragePurgeEvent.newBuilder()
            .setPurgeEventId(UUID.randomUUID().toString())
            .setNodeId(row.nodeId().toString())
            .setAccountId(row.accountId())
            .setDocId(row.docId())
            .setGraphId(row.graphId())
            .setGraphAddressId(row.graphAddressId())
            .setDriveName(row.driveName())
            .setReason(reason)
            .setTombstonedAt(
                Timestamp.newBuilder().setSeconds(at.getEpochSecond()).setNanos(at.getNano()));
    for (PartManifestEntry entry : row.manifest().getEntriesList()) {
      if (!entry.getObjectKey().isBlank()) {
        event.addObjectKeys(entry.getObjectKey());
      }
    }
    return event.build();
  }
}
