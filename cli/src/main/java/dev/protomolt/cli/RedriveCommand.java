package dev.protomolt.cli;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionDoesNotExistException;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ExecutionNotRedrivableException;
import software.amazon.awssdk.services.sfn.model.ExecutionRedriveStatus;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;
import software.amazon.awssdk.services.sfn.model.HistoryEvent;
import software.amazon.awssdk.services.sfn.model.SfnException;

/**
 * {@code protomolt redrive}: Step Functions RedriveExecution for one execution, or for every
 * failed, aborted or timed-out execution of a graph version that stopped in a time window. Each
 * execution continues from the state it stopped in; the hops that succeeded before are not run
 * again. It prints every execution it redrove and every one it skipped with the reason. A
 * dead-lettered execution is redriven too: its failed state is {@code N.DeadLettered}, which on a
 * redrive sends the walk back to the hop that failed (decision 1525). Only a version compiled
 * before that ended its dead letters in a Fail state, which a redrive would just re-enter; those
 * are skipped and pointed at {@code protomolt dlq reprocess}.
 */
@Command(
    name = "redrive",
    mixinStandardHelpOptions = true,
    description =
        "Redrive failed, aborted or timed-out executions of the running platform from the state"
            + " they stopped in.")
final class RedriveCommand implements Callable<Integer> {

  /** The error a compiled {@code N.DeadLettered} state ends an execution with. */
  static final String DEAD_LETTERED = "ProtoMolt.DeadLettered";

  /** The history event of entering a Fail state: where an older version's dead letters ended. */
  private static final String FAIL_STATE_ENTERED = "FailStateEntered";

  @Spec CommandSpec spec;

  @Mixin DataOption data;

  @Mixin GatewayOption gateway;

  @ArgGroup(exclusive = true, multiplicity = "1")
  Target target;

  static final class Target {
    @Option(names = "--execution", paramLabel = "ARN", description = "One execution to redrive.")
    String execution;

    @ArgGroup(exclusive = false)
    GraphVersion graphVersion;
  }

  static final class GraphVersion {
    @Option(names = "--graph", required = true, paramLabel = "G")
    String graph;

    @Option(names = "--version", required = true, paramLabel = "N")
    long version;

    @Option(
        names = "--since",
        paramLabel = "T",
        description = "Only executions that stopped at or after this ISO-8601 instant.")
    String since;

    @Option(
        names = "--until",
        paramLabel = "T",
        description = "Only executions that stopped before this ISO-8601 instant.")
    String until;
  }

  @Option(names = "--dry-run", description = "Print what would be redriven; redrive nothing.")
  boolean dryRun;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    try (LocalClients clients = new LocalClients(LocalEnvironment.expected(data.settings()))) {
      List<String> candidates;
      if (target.execution != null) {
        candidates = List.of(target.execution);
      } else {
        GraphVersion gv = target.graphVersion;
        Instant since = instant("--since", gv.since);
        Instant until = instant("--until", gv.until);
        if (since != null && until != null && !since.isBefore(until)) {
          throw CommandFailure.refused(
              "--since: must be before --until, got " + gv.since + " and " + gv.until);
        }
        if (gv.version < 1) {
          throw CommandFailure.refused("--version: must be 1 or more, got " + gv.version);
        }
        String versionArn = versionArn(gv);
        if (versionArn.isEmpty()) {
          throw CommandFailure.refused(
              "--version: graph '"
                  + gv.graph
                  + "' version "
                  + gv.version
                  + " was never published to Step Functions, so it has no executions");
        }
        candidates = unsuccessful(clients.sfn(), versionArn, since, until);
      }
      int redriven = 0;
      int skipped = 0;
      for (String arn : candidates) {
        String reason = redrive(clients.sfn(), arn);
        if (reason == null) {
          redriven++;
          out.printf("%s %s%n", dryRun ? "would redrive" : "redrove", arn);
        } else {
          skipped++;
          out.printf("skipped %s: %s%n", arn, reason);
        }
      }
      out.printf("%s %d, skipped %d%n", dryRun ? "would redrive" : "redriven", redriven, skipped);
      out.flush();
      return 0;
    }
  }

  /**
   * The version's published state machine version, from the gateway's graph door (decision 1523);
   * a version that does not exist is refused naming both flags, as before.
   */
  private String versionArn(GraphVersion gv) {
    ManagedChannel channel = gateway.open();
    try {
      PlatformRuns runs = new PlatformRuns(channel);
      return gateway.call(
          "graph '" + gv.graph + "' version " + gv.version,
          () -> {
            try {
              return runs.stateMachineVersionArn(gv.graph, gv.version);
            } catch (StatusRuntimeException e) {
              if (e.getStatus().getCode() == Status.Code.NOT_FOUND) {
                throw CommandFailure.refused(
                    "--graph/--version: graph '" + gv.graph + "' has no version " + gv.version);
              }
              throw e;
            }
          });
    } finally {
      channel.shutdownNow();
    }
  }

  /** Every FAILED, ABORTED or TIMED_OUT execution of the version that stopped in the window. */
  private static List<String> unsuccessful(
      SfnClient sfn, String versionArn, Instant since, Instant until) {
    List<String> arns = new ArrayList<>();
    for (ExecutionStatus status :
        List.of(ExecutionStatus.FAILED, ExecutionStatus.ABORTED, ExecutionStatus.TIMED_OUT)) {
      for (ExecutionListItem item :
          sfn.listExecutionsPaginator(b -> b.stateMachineArn(versionArn).statusFilter(status))
              .executions()) {
        Instant stopped = item.stopDate();
        if ((since == null || !stopped.isBefore(since))
            && (until == null || stopped.isBefore(until))) {
          arns.add(item.executionArn());
        }
      }
    }
    return arns;
  }

  /** Redrives one execution; returns why it was skipped, or null when it was (or would be). */
  private String redrive(SfnClient sfn, String arn) {
    DescribeExecutionResponse e;
    try {
      e = sfn.describeExecution(b -> b.executionArn(arn));
    } catch (ExecutionDoesNotExistException ex) {
      return "no such execution";
    } catch (SfnException ex) {
      // InvalidArn and the like: the ARN is not one Step Functions can look up.
      return ex.awsErrorDetails().errorMessage();
    }
    if (e.redriveStatus() != ExecutionRedriveStatus.REDRIVABLE) {
      return e.redriveStatusReason() != null ? e.redriveStatusReason() : "not redrivable";
    }
    if (DEAD_LETTERED.equals(e.error()) && endedInFailState(sfn, arn)) {
      return "dead-lettered by a graph version whose dead letters end in a Fail state, which a"
          + " redrive would only re-enter; reprocess its dead letter with `protomolt dlq"
          + " reprocess`";
    }
    if (dryRun) {
      return null;
    }
    try {
      sfn.redriveExecution(b -> b.executionArn(arn));
      return null;
    } catch (ExecutionNotRedrivableException ex) {
      return ex.awsErrorDetails().errorMessage();
    }
  }

  /** Whether the last state the execution entered was a Fail state (the newest history first). */
  private static boolean endedInFailState(SfnClient sfn, String arn) {
    for (HistoryEvent event :
        sfn.getExecutionHistory(
                b ->
                    b.executionArn(arn)
                        .reverseOrder(true)
                        .includeExecutionData(false)
                        .maxResults(25))
            .events()) {
      if (event.stateEnteredEventDetails() != null) {
        return FAIL_STATE_ENTERED.equals(event.typeAsString());
      }
    }
    return false;
  }

  private Instant instant(String flag, String text) {
    if (text == null) {
      return null;
    }
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw new ParameterException(
          spec.commandLine(),
          flag + ": must be an ISO-8601 instant such as 2026-03-01T12:00:00Z, got '" + text + "'");
    }
  }
}
