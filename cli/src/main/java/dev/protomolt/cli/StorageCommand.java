package dev.protomolt.cli;

import dev.protomolt.proto.engine.v1.DriveCoherence;
import dev.protomolt.proto.engine.v1.EngineDiagnosticsServiceGrpc;
import dev.protomolt.proto.engine.v1.StorageCoherenceRequest;
import dev.protomolt.proto.engine.v1.StorageCoherenceResponse;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code protomolt storage coherence|reconcile --dry-run}: the document store's read-only
 * coherence check of one account's drives, through the gateway's diagnostics door (decision 1791).
 */
@Command(
    name = "storage",
    mixinStandardHelpOptions = true,
    description = "Check the document store's coherence (ledger rows against S3 objects).",
    subcommands = {StorageCommand.Coherence.class, StorageCommand.Reconcile.class})
final class StorageCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** What both subcommands share: the account option and the one call. */
  abstract static class StorageCall implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Mixin GatewayOption gateway;

    @Option(
        names = "--account",
        required = true,
        paramLabel = "ACCOUNT",
        description = "The account whose intake and pipeline drives are checked.")
    String account;

    StorageCoherenceResponse check() {
      ManagedChannel channel = gateway.open();
      try {
        return gateway.call(
            "storage of account '" + account + "'",
            () -> {
              try {
                return EngineDiagnosticsServiceGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(10, TimeUnit.MINUTES)
                    .getStorageCoherence(
                        StorageCoherenceRequest.newBuilder().setAccountId(account).build());
              } catch (StatusRuntimeException e) {
                if (e.getStatus().getCode() == Status.Code.UNIMPLEMENTED) {
                  throw new CommandFailure(
                      CommandFailure.UNREACHABLE,
                      "the gateway on "
                          + gateway.address
                          + " serves no diagnostics — switch them on with"
                          + " PROTOMOLT_DIAGNOSTICS_ENABLED=true");
                }
                throw e;
              }
            });
      } finally {
        channel.shutdownNow();
      }
    }
  }

  @Command(
      name = "coherence",
      mixinStandardHelpOptions = true,
      description =
          "Rows by state, orphaned objects and rows whose objects are gone, per drive;"
              + " reads only. Exits 1 when a drive is incoherent.")
  static final class Coherence extends StorageCall {

    @Override
    public Integer call() {
      StorageCoherenceResponse r = check();
      PrintWriter out = spec.commandLine().getOut();
      for (DriveCoherence d : r.getDrivesList()) {
        out.printf(
            "%s (s3://%s/%s): %s%n",
            d.getDriveName(),
            d.getBucket(),
            d.getPrefix(),
            d.getCoherent() ? "coherent" : "INCOHERENT");
        out.printf("  rows by state: %s%n", d.getRowsByStatusMap());
        out.printf(
            "  objects: %d listed, %d orphaned, %d too young to judge, %d outside the store's"
                + " layout%n",
            d.getObjectsScanned(), d.getOrphans(), d.getYoungObjects(), d.getForeignObjects());
        d.getOrphanSampleList().forEach(k -> out.printf("    orphan %s%n", k));
        out.printf(
            "  rows: %d checked, %d missing objects, %d cache copies expired%n",
            d.getRowsChecked(), d.getRowsMissingObjects(), d.getCacheRowsMissingObjects());
        d.getMissingSampleList().forEach(m -> out.printf("    missing %s%n", m));
      }
      out.flush();
      return r.getCoherent() ? 0 : CommandFailure.REFUSED;
    }
  }

  @Command(
      name = "reconcile",
      mixinStandardHelpOptions = true,
      description =
          "With --dry-run, the orphans the reconciler would delete, per drive. Deleting is left to"
              + " the scheduled reconciler.")
  static final class Reconcile extends StorageCall {

    @Option(
        names = "--dry-run",
        description = "Report only (required: this command never deletes).")
    boolean dryRun;

    @Override
    public Integer call() {
      if (!dryRun) {
        throw CommandFailure.refused(
            "--dry-run: required — this command only reports; the scheduled reconciler function"
                + " deletes orphans where PROTOMOLT_RECONCILER_DELETE is true");
      }
      StorageCoherenceResponse r = check();
      PrintWriter out = spec.commandLine().getOut();
      long total = 0;
      for (DriveCoherence d : r.getDrivesList()) {
        total += d.getOrphans();
        out.printf(
            "%s: would delete %d orphan(s); %d object(s) too young to judge%n",
            d.getDriveName(), d.getOrphans(), d.getYoungObjects());
        d.getOrphanSampleList().forEach(k -> out.printf("    %s%n", k));
      }
      out.printf("dry run: nothing deleted (%d orphan(s) in all)%n", total);
      out.flush();
      return 0;
    }
  }
}
