package dev.protomolt.cli;

import dev.protomolt.proto.module.v1.GetModuleBacklogRequest;
import dev.protomolt.proto.module.v1.GetModuleBacklogResponse;
import dev.protomolt.proto.module.v1.GraphNodeBacklog;
import dev.protomolt.proto.module.v1.ModuleBacklogServiceGrpc;
import dev.protomolt.proto.module.v1.ModuleServiceBacklog;
import io.grpc.ManagedChannel;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code protomolt status}: per module service, the records queued, the oldest queued age, the
 * Work streams open and the units in flight on the gateway, with the consumer group's lag
 * (decision 1655), and the hops answered from a memo without handing the module any work (decision
 * 1816); then per graph node, what the answering gateway task holds and how it settled the node's
 * hops since it started (decision 1659). Signed as an operator; the gateway answers only a
 * platform operator.
 */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description =
        "Per module service: records queued, oldest queued age, streams open and units in flight"
            + " on the gateway, the consumer group's lag, and hops answered from a memo instead;"
            + " then per graph node: queued, oldest, in flight, hops done, rejected and retried"
            + " since the answering gateway task started, and the node's dead letters.")
final class StatusCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin GatewayOption gateway;

  @Override
  public Integer call() {
    ManagedChannel channel = gateway.open();
    GetModuleBacklogResponse backlog;
    try {
      backlog =
          gateway.call(
              "the module backlog",
              () ->
                  ModuleBacklogServiceGrpc.newBlockingStub(channel)
                      .withDeadlineAfter(60, TimeUnit.SECONDS)
                      .getModuleBacklog(GetModuleBacklogRequest.getDefaultInstance()));
    } finally {
      channel.shutdownNow();
    }
    PrintWriter out = spec.commandLine().getOut();
    print(backlog, out);
    out.flush();
    return 0;
  }

  /** One row per module service, widths fitted to the longest module id. */
  static void print(GetModuleBacklogResponse backlog, PrintWriter out) {
    int width = "module service".length();
    for (ModuleServiceBacklog b : backlog.getModuleServicesList()) {
      width = Math.max(width, b.getModuleId().length());
    }
    String row = "%-" + width + "s  %8s  %10s  %7s  %9s  %9s  %8s%n";
    out.printf(
        row, "module service", "queued", "oldest", "streams", "in flight", "group lag", "memoized");
    for (ModuleServiceBacklog b : backlog.getModuleServicesList()) {
      out.printf(
          row,
          b.getModuleId(),
          b.getQueued(),
          age(b.getOldestQueuedAgeSeconds()),
          b.getStreamsOpen(),
          b.getUnitsInFlight(),
          b.getGroupLag(),
          b.getMemoized());
    }
    out.println();
    printNodes(backlog, out);
  }

  /**
   * One row per graph node, saying whose counts they are: the settled hops are the answering
   * task's, since it started (several tasks behind a load balancer each count their own share);
   * the dead letters are the node's topics', every task's.
   */
  static void printNodes(GetModuleBacklogResponse backlog, PrintWriter out) {
    Instant since =
        Instant.ofEpochSecond(
            backlog.getCountedSince().getSeconds(), backlog.getCountedSince().getNanos());
    if (backlog.getGraphNodesCount() == 0) {
      out.printf(
          "per graph node: the answering gateway task has held no work since it started at %s%n",
          since);
      return;
    }
    out.printf(
        "per graph node: queued and in flight now; done, rejected and retried are the answering"
            + " gateway task's hops since it started at %s; dead-lettered counts the letters on the"
            + " node's dead-letter topics%n",
        since);
    int graphWidth = "graph".length();
    int nodeWidth = "node".length();
    int moduleWidth = "module service".length();
    for (GraphNodeBacklog n : backlog.getGraphNodesList()) {
      graphWidth = Math.max(graphWidth, n.getGraphId().length());
      nodeWidth = Math.max(nodeWidth, n.getNodeId().length());
      moduleWidth = Math.max(moduleWidth, n.getModuleId().length());
    }
    String row =
        "%-"
            + graphWidth
            + "s  %-"
            + nodeWidth
            + "s  %-"
            + moduleWidth
            + "s  %8s  %10s  %9s  %8s  %8s  %7s  %13s%n";
    out.printf(
        row,
        "graph",
        "node",
        "module service",
        "queued",
        "oldest",
        "in flight",
        "done",
        "rejected",
        "retried",
        "dead-lettered");
    for (GraphNodeBacklog n : backlog.getGraphNodesList()) {
      out.printf(
          row,
          n.getGraphId(),
          n.getNodeId(),
          n.getModuleId(),
          n.getQueued(),
          age(n.getOldestQueuedAgeSeconds()),
          n.getUnitsInFlight(),
          n.getDone(),
          n.getRejected(),
          n.getRetried(),
          n.getDeadLettered());
    }
  }

  /** An age as a person reads it: seconds, then minutes, then hours. */
  static String age(long seconds) {
    if (seconds < 120) {
      return seconds + " s";
    }
    if (seconds < 7200) {
      return seconds / 60 + " min";
    }
    return seconds / 3600 + " h";
  }
}
