package dev.protomolt.cli;

import dev.protomolt.proto.engine.v1.EffectiveConfigRequest;
import dev.protomolt.proto.engine.v1.EngineDiagnosticsServiceGrpc;
import dev.protomolt.proto.engine.v1.EngineDiagnosticsServiceGrpc.EngineDiagnosticsServiceBlockingStub;
import dev.protomolt.proto.engine.v1.ProbeClaimCheckRequest;
import dev.protomolt.proto.engine.v1.ProbeDraftsRequest;
import dev.protomolt.proto.engine.v1.ProbeHopRequest;
import dev.protomolt.proto.engine.v1.ProbeKafkaRequest;
import dev.protomolt.proto.engine.v1.ProbeResult;
import dev.protomolt.proto.engine.v1.ProbeStateMachineRequest;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code protomolt doctor}: runs every diagnostics probe the gateway serves and prints one row per
 * probe, what it found and, when it failed, what to fix. Exits 0 when every probe that ran passed,
 * 1 when one failed, 3 when the gateway cannot be reached or serves no diagnostics.
 */
@Command(
    name = "doctor",
    mixinStandardHelpOptions = true,
    description =
        "Run every diagnostics probe on the running platform and print what works and what to"
            + " fix.")
final class DoctorCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin GatewayOption gateway;

  @Option(
      names = "--account",
      paramLabel = "ACCOUNT",
      description = "Account whose pipeline drive the claim-check probe stages its canary on.")
  String account;

  @Option(
      names = "--graph",
      paramLabel = "GRAPH",
      description = "Graph whose Step Functions alias is probed (and whose --node is dry-run).")
  String graph;

  @Option(
      names = "--node",
      paramLabel = "NODE",
      description = "Node of --graph to dry-run a synthetic document through.")
  String node;

  @Option(
      names = "--cluster",
      paramLabel = "CLUSTER",
      defaultValue = LocalPlatform.CLUSTER,
      description = "Cluster of the drafts canary and of --graph (default: ${DEFAULT-VALUE}).")
  String cluster;

  /** One row of the table. */
  record Row(String probe, String status, long millis, String detail) {}

  @Override
  public Integer call() {
    ManagedChannel channel = gateway.open();
    try {
      EngineDiagnosticsServiceBlockingStub stub =
          EngineDiagnosticsServiceGrpc.newBlockingStub(channel);
      List<Row> rows = new ArrayList<>();
      int entries =
          diagnostics(
              () ->
                  timed(stub)
                      .getEffectiveConfig(EffectiveConfigRequest.getDefaultInstance())
                      .getEntriesCount());
      rows.add(new Row("config", "ok", 0, entries + " settings resolved, secrets redacted"));
      rows.add(
          row(
              "kafka",
              "check the brokers and the gateway's PROTOMOLT_KAFKA_* settings",
              () -> timed(stub).probeKafka(ProbeKafkaRequest.getDefaultInstance())));
      if (account == null) {
        rows.add(new Row("claim-check", "skipped", 0, "pass --account to probe a drive"));
      } else {
        rows.add(
            row(
                "claim-check",
                "check the account's drive, the bucket and the credentials it names",
                () ->
                    timed(stub)
                        .probeClaimCheck(
                            ProbeClaimCheckRequest.newBuilder().setAccountId(account).build())));
      }
      rows.add(
          row(
              "drafts",
              "check the drafts table and the gateway's PROTOMOLT_DRAFTS_TABLE",
              () ->
                  timed(stub)
                      .probeDrafts(ProbeDraftsRequest.newBuilder().setClusterId(cluster).build())));
      if (graph == null) {
        rows.add(new Row("state-machine", "skipped", 0, "pass --graph to probe its alias"));
      } else {
        rows.add(
            row(
                "state-machine",
                "activate the graph again to redeploy it and move its alias",
                () ->
                    timed(stub)
                        .probeStateMachine(
                            ProbeStateMachineRequest.newBuilder()
                                .setGraphId(graph)
                                .setClusterId(cluster)
                                .build())));
      }
      if (graph == null || node == null) {
        rows.add(new Row("hop", "skipped", 0, "pass --graph and --node to dry-run a node"));
      } else {
        rows.add(
            row(
                "hop",
                "fix the node's filter, mappings or edges and publish a new version",
                () ->
                    timed(stub)
                        .probeHop(
                            ProbeHopRequest.newBuilder()
                                .setGraphId(graph)
                                .setClusterId(cluster)
                                .setNodeId(node)
                                .build())));
      }
      PrintWriter out = spec.commandLine().getOut();
      print(rows, out);
      out.flush();
      long failed = rows.stream().filter(r -> r.status().equals("FAIL")).count();
      return failed == 0 ? 0 : CommandFailure.REFUSED;
    } finally {
      channel.shutdownNow();
    }
  }

  private Row row(String probe, String fix, Supplier<ProbeResult> call) {
    ProbeResult r = diagnostics(call);
    long millis = r.getElapsed().getSeconds() * 1000 + r.getElapsed().getNanos() / 1_000_000;
    if (r.getOk()) {
      String last = r.getStepsCount() == 0 ? "" : r.getSteps(r.getStepsCount() - 1).getDetail();
      return new Row(probe, "ok", millis, last);
    }
    return new Row(probe, "FAIL", millis, r.getError() + " — " + fix);
  }

  /** A diagnostics call; a gateway without the surface is told apart from a failing probe. */
  private <T> T diagnostics(Supplier<T> call) {
    return gateway.call(
        "diagnostics",
        () -> {
          try {
            return call.get();
          } catch (StatusRuntimeException e) {
            if (e.getStatus().getCode() == Status.Code.UNIMPLEMENTED) {
              throw unavailable();
            }
            throw e;
          }
        });
  }

  private CommandFailure unavailable() {
    return new CommandFailure(
        CommandFailure.UNREACHABLE,
        "the gateway on "
            + gateway.address
            + " serves no diagnostics — switch them on with PROTOMOLT_DIAGNOSTICS_ENABLED=true"
            + " (gateway.diagnostics in the environment's config)");
  }

  private static EngineDiagnosticsServiceBlockingStub timed(
      EngineDiagnosticsServiceBlockingStub stub) {
    return stub.withDeadlineAfter(60, TimeUnit.SECONDS);
  }

  static void print(List<Row> rows, PrintWriter out) {
    out.printf(Locale.ROOT, "%-14s %-8s %8s  %s%n", "PROBE", "STATUS", "TIME", "DETAIL");
    for (Row r : rows) {
      out.printf(
          Locale.ROOT,
          "%-14s %-8s %8s  %s%n",
          r.probe(),
          r.status(),
          r.status().equals("skipped") ? "" : r.millis() + " ms",
          r.detail());
    }
    long failed = rows.stream().filter(r -> r.status().equals("FAIL")).count();
    out.println(
        failed == 0
            ? "every probe that ran passed"
            : failed + " probe(s) failed: fix what the DETAIL column says, then run doctor again");
  }
}
