package dev.protomolt.gateway.diagnostics;

import dev.protomolt.core.store.Drive;
import dev.protomolt.core.store.DriveDirectory;
import dev.protomolt.core.store.DriveKind;
import dev.protomolt.proto.engine.v1.DriveCoherence;
import dev.protomolt.proto.engine.v1.StorageCoherenceResponse;
import dev.protomolt.repository.reconcile.CoherenceReport;
import dev.protomolt.repository.reconcile.StorageCoherence;
import io.grpc.Status;
import java.util.Objects;
import java.util.Optional;

/** The store's coherence check of one account's drives, as the diagnostics door answers it. */
public final class StorageCoherenceCheck {

  private final DriveDirectory drives;
  private final StorageCoherence coherence;

  public StorageCoherenceCheck(DriveDirectory drives, StorageCoherence coherence) {
    this.drives = Objects.requireNonNull(drives, "drives");
    this.coherence = Objects.requireNonNull(coherence, "coherence");
  }

  /**
   * Checks the account's intake and pipeline drives. A blank or unknown account is refused with
   * INVALID_ARGUMENT / NOT_FOUND naming {@code account_id}: unlike a probe, there is nothing to
   * report on.
   */
  public StorageCoherenceResponse check(String accountId) {
    if (accountId == null || accountId.isBlank()) {
      throw Status.INVALID_ARGUMENT
          .withDescription("account_id: required (the account whose drives are checked)")
          .asRuntimeException();
    }
    StorageCoherenceResponse.Builder out = StorageCoherenceResponse.newBuilder().setCoherent(true);
    for (DriveKind kind : DriveKind.values()) {
      Optional<Drive> drive = drives.find(accountId, kind);
      if (drive.isEmpty()) {
        continue;
      }
      CoherenceReport r = coherence.check(drive.get());
      out.addDrives(
          DriveCoherence.newBuilder()
              .setDriveName(r.driveName())
              .setBucket(r.bucket())
              .setPrefix(r.prefix())
              .putAllRowsByStatus(r.rowsByStatus())
              .setObjectsScanned(r.orphans().scanned())
              .setOrphans(r.orphans().orphans())
              .addAllOrphanSample(r.orphans().sample())
              .setYoungObjects(r.orphans().young())
              .setForeignObjects(r.orphans().foreign())
              .setRowsChecked(r.rowsChecked())
              .setRowsMissingObjects(r.rowsMissingObjects())
              .addAllMissingSample(r.missingSample())
              .setCacheRowsMissingObjects(r.cacheRowsMissingObjects())
              .setCoherent(r.coherent()));
      out.setCoherent(out.getCoherent() && r.coherent());
    }
    if (out.getDrivesCount() == 0) {
      throw Status.NOT_FOUND
          .withDescription("account_id: account '" + accountId + "' has no drives")
          .asRuntimeException();
    }
    return out.build();
  }
}
