package dev.protomolt.gateway.diagnostics;

import dev.protomolt.core.store.BlobStore;
import dev.protomolt.core.store.Drive;
import dev.protomolt.core.store.DriveDirectory;
import dev.protomolt.core.store.DriveKind;
import dev.protomolt.core.store.ObjectAddress;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.engine.v1.ProbeResult;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Stages a canary document on an account's pipeline drive, hydrates it back and purges it, through
 * the same blob store and the same per-drive S3 clients (the drive's credentials reference) the
 * store stages hop copies with. It writes no ledger row: the canary lives under {@value
 * #CANARY_PREFIX} and is deleted before the probe answers, so the reconciler never sees it unless
 * the purge step itself fails, and then it is an ordinary orphan.
 */
public final class ClaimCheckProbe {

  static final String CANARY_PREFIX = "diagnostics/";

  private final DriveDirectory drives;
  private final BlobStore blobs;

  public ClaimCheckProbe(DriveDirectory drives, BlobStore blobs) {
    this.drives = Objects.requireNonNull(drives, "drives");
    this.blobs = Objects.requireNonNull(blobs, "blobs");
  }

  public ProbeResult probe(String accountId) {
    ProbeRun run = new ProbeRun("claim-check");
    if (accountId == null || accountId.isBlank()) {
      return run.fail("account_id: required (the account whose pipeline drive is probed)").result();
    }
    Drive[] drive = new Drive[1];
    run.step(
        "resolve drive",
        "ledger (drives table)",
        () -> {
          Optional<Drive> found = drives.find(accountId, DriveKind.PIPELINE);
          drive[0] =
              found.orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "account_id: account '" + accountId + "' has no pipeline drive"));
          return "drive "
              + drive[0].name()
              + " in bucket "
              + drive[0].bucket()
              + " with credentials '"
              + drive[0].credentialsRef()
              + "'";
        });
    if (run.failed()) {
      return run.result();
    }
    String s3 =
        "S3 bucket " + drive[0].bucket() + " (credentials '" + drive[0].credentialsRef() + "')";
    String id = "canary-" + UUID.randomUUID();
    ObjectAddress address = drive[0].address(CANARY_PREFIX + id);
    byte[] canary =
        PipeDoc.newBuilder()
            .setDocId(id)
            .setSearchMetadata(SearchMetadata.newBuilder().setBody("diagnostics canary"))
            .build()
            .toByteArray();
    run.step(
            "stage",
            s3,
            () -> {
              blobs.put(address, canary, true);
              return "wrote " + canary.length + " bytes to " + address;
            })
        .step(
            "hydrate",
            s3,
            () -> {
              PipeDoc back = PipeDoc.parseFrom(blobs.get(address));
              if (!back.getDocId().equals(id)) {
                throw new IllegalStateException(
                    "read back document '" + back.getDocId() + "', expected '" + id + "'");
              }
              return "read the canary back intact";
            })
        .step(
            "purge",
            s3,
            () -> {
              List<ObjectAddress> failed = blobs.deleteAll(List.of(address));
              if (!failed.isEmpty()) {
                throw new IllegalStateException("the canary " + address + " was not deleted");
              }
              return "deleted " + address;
            });
    return run.result();
  }
}
