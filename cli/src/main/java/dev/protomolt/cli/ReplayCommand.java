package dev.protomolt.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.protomolt.proto.engine.v1.ReplayRun;
import io.grpc.ManagedChannel;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * {@code protomolt replay}: starts the platform's replay state machine ({@code
 * protomolt-local-replay}, decision 1700) through the Step Functions API with the same JSON input
 * an operator would paste into the console, and with {@code --wait} follows the run's audit row
 * with a progress bar to its final counts, then the executions it started until they end, showing
 * how many finished and how many wait for a module beside either bar (decision 1659). A refused
 * input fails the execution in its first state; {@code --wait} prints that refusal under the flag
 * it came from.
 */
@Command(
    name = "replay",
    mixinStandardHelpOptions = true,
    description = "Start stored documents again on a graph version of the running platform.")
final class ReplayCommand implements Callable<Integer> {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Spec CommandSpec spec;

  @Mixin DataOption data;

  @Mixin GatewayOption gateway;

  @Option(names = "--account", required = true, paramLabel = "A")
  String account;

  @Option(names = "--graph", required = true, paramLabel = "G")
  String graph;

  @Option(
      names = "--version",
      paramLabel = "N",
      description = "The graph version to run (default: the active one when the replay starts).")
  Long version;

  @Option(names = "--datasource", paramLabel = "D")
  String datasource;

  @Option(names = "--doc", paramLabel = "ID", description = "A document id (repeatable).")
  List<String> docs;

  @Option(names = "--crawl", paramLabel = "C")
  String crawl;

  @Option(
      names = "--modified-after",
      paramLabel = "T",
      description = "ISO-8601 instant, exclusive.")
  String modifiedAfter;

  @Option(
      names = "--modified-before",
      paramLabel = "T",
      description = "ISO-8601 instant, exclusive.")
  String modifiedBefore;

  @Option(
      names = "--indexing-outcome",
      paramLabel = "O",
      description = "NEVER_INDEXED, FAILED or INDEXED.")
  String indexingOutcome;

  @Option(
      names = "--target-node",
      paramLabel = "NODE",
      description = "Enter at this node from its stored copies instead of at intake.")
  String targetNode;

  @Option(names = "--dry-run", description = "Count what would start; start nothing.")
  boolean dryRun;

  @Option(
      names = "--rate",
      paramLabel = "N",
      description = "Executions started per second, at most (default: no limit).")
  Integer rate;

  @Option(names = "--page-size", paramLabel = "N", description = "Candidates per page.")
  Integer pageSize;

  @Option(
      names = "--replay-id",
      paramLabel = "ID",
      description = "Names the replay; the same id converges (default: derived from the request).")
  String replayId;

  @Option(
      names = "--wait",
      description =
          "Follow the replay with a progress bar until its final counts, then its documents until"
              + " each reached a terminal disposition.")
  boolean await;

  @Option(
      names = "--timeout-seconds",
      defaultValue = "300",
      paramLabel = "N",
      description =
          "How long --wait waits for the replayed documents once the run has started them"
              + " (default: ${DEFAULT-VALUE}).")
  long timeoutSeconds;

  /** How often the progress counts the replay's documents: a listing and history reads each. */
  private static final Duration COUNTED_EVERY = Duration.ofSeconds(2);

  @Override
  public Integer call() throws InterruptedException {
    if (timeoutSeconds < 1) {
      throw new ParameterException(
          spec.commandLine(), "--timeout-seconds: must be at least 1, got " + timeoutSeconds);
    }
    String input = input().toString();
    PrintWriter out = spec.commandLine().getOut();
    try (LocalClients clients = new LocalClients(LocalEnvironment.expected(data.settings()))) {
      String machineArn = LocalPlatform.replayMachineArn(clients.region());
      // Each command is its own run; the replay id, not the execution name, makes reruns converge.
      String name = "cli-" + UUID.randomUUID();
      String runArn =
          clients
              .sfn()
              .startExecution(b -> b.stateMachineArn(machineArn).name(name).input(input))
              .executionArn();
      out.printf("replay execution %s%n", runArn);
      out.flush();
      if (!await) {
        return 0;
      }
      // The run's audit row, read through the gateway's runs door (decision 1523).
      ManagedChannel channel = gateway.open();
      try {
        return follow(clients, new PlatformRuns(channel), runArn, out);
      } finally {
        channel.shutdownNow();
      }
    }
  }

  private int follow(LocalClients clients, PlatformRuns runs, String runArn, PrintWriter out)
      throws InterruptedException {
    Instant since = clients.sfn().describeExecution(b -> b.executionArn(runArn)).startDate();
    ProgressLine progress = null;
    ReplayWatch watch = null;
    String note = "";
    long notedAt = 0;
    while (true) {
      Optional<ReplayRun> state = gateway.call("replay run", () -> runs.replayRun(runArn));
      if (state.isPresent()) {
        ReplayRun run = state.get();
        if (progress == null) {
          progress = ProgressLine.onConsole(out, "replaying", run.getCandidatesTotal());
        }
        if (watch == null && !run.getDryRun() && !run.getStateMachineVersionArn().isEmpty()) {
          watch =
              new ReplayWatch(
                  clients.sfn(),
                  run.getGraphId(),
                  run.getStateMachineVersionArn(),
                  run.getReplayId(),
                  since);
        }
        boolean last = run.getStatus().equals("SUCCEEDED");
        if (watch != null && (last || System.nanoTime() - notedAt >= COUNTED_EVERY.toNanos())) {
          watch.refresh();
          note = processedNote(watch.finished(), watch.queued());
          notedAt = System.nanoTime();
        }
        if (last) {
          progress.finish(run.getCandidates(), note);
          report(out, run);
          return watch == null ? 0 : awaitDocuments(watch, startedBy(run), out);
        }
        progress.update(run.getCandidates(), note);
      }
      DescribeExecutionResponse root = clients.sfn().describeExecution(b -> b.executionArn(runArn));
      if (root.status() != ExecutionStatus.RUNNING && root.status() != ExecutionStatus.SUCCEEDED) {
        throw refusal(root);
      }
      // A command's own poll of a running replay: the run's audit row is what it watches.
      Thread.sleep(200);
    }
  }

  /** The executions the run itself started: fresh starts and re-fetched sources. */
  private static long startedBy(ReplayRun run) {
    return run.getCountsOrDefault("started", 0L) + run.getCountsOrDefault("source_refetched", 0L);
  }

  /** "· N finished", then how many wait for a module as ingest --wait says it. */
  static String processedNote(int finished, int queued) {
    String waiting = IngestCommand.queuedNote(queued);
    return "· " + finished + " finished" + (waiting.isEmpty() ? "" : " " + waiting);
  }

  /**
   * Follows the executions the run started until each ended or the timeout: finished on the bar,
   * the queued beside it, and then how they ended.
   */
  private int awaitDocuments(ReplayWatch watch, long started, PrintWriter out)
      throws InterruptedException {
    if (started == 0) {
      return 0;
    }
    ProgressLine progress = ProgressLine.onConsole(out, "processing", started);
    long deadline = System.nanoTime() + Duration.ofSeconds(timeoutSeconds).toNanos();
    String queued = "";
    long queuedAt = 0;
    while (true) {
      watch.refresh();
      boolean last = watch.finished() >= started || System.nanoTime() > deadline;
      // Counting the queue reads each running execution's newest event: every 2 s, not every poll.
      if (last || System.nanoTime() - queuedAt >= COUNTED_EVERY.toNanos()) {
        queued = IngestCommand.queuedNote(watch.queued());
        queuedAt = System.nanoTime();
      }
      if (last) {
        break;
      }
      progress.update(watch.finished(), queued);
      // A command's own poll of the executions it follows.
      Thread.sleep(500);
    }
    progress.finish(watch.finished(), queued);
    out.println("replayed documents' dispositions: " + watch.dispositions());
    if (watch.finished() < started) {
      out.printf(
          "%d of %d replayed documents had no terminal disposition after %d s; `protomolt replay"
              + " --wait --timeout-seconds N` waits longer, `protomolt status` shows what waits"
              + " at which node%n",
          started - watch.finished(), started, timeoutSeconds);
      out.flush();
      return CommandFailure.REFUSED;
    }
    out.flush();
    return 0;
  }

  private static void report(PrintWriter out, ReplayRun run) {
    out.printf(
        "replay %s of graph '%s' version %d (%s)%n",
        run.getReplayId(),
        run.getGraphId(),
        run.getGraphVersion(),
        run.getStateMachineVersionArn());
    long started = run.getCountsOrDefault("started", 0L);
    long already = run.getCountsOrDefault("already_started", 0L);
    long would = run.getCountsOrDefault("would_start", 0L);
    long skipped = run.getCandidates() - started - already - would;
    out.printf(
        "candidates %d, started %d, already started %d, skipped %d%n",
        run.getCandidates(), started, already, skipped);
    if (run.getDryRun()) {
      out.printf("  dry run: would start %d%n", would);
    }
    new java.util.TreeMap<>(run.getCountsMap())
        .entrySet().stream()
            .filter(e -> !List.of("started", "already_started", "would_start").contains(e.getKey()))
            .forEach(e -> out.printf("  skipped %s: %d%n", e.getKey(), e.getValue()));
    out.flush();
  }

  /** A failed replay execution: a refusal names the field, shown under the flag the user typed. */
  private static CommandFailure refusal(DescribeExecutionResponse failed) {
    String message = failed.cause() == null ? "" : failed.cause();
    try {
      JsonNode cause = JSON.readTree(message);
      if (cause != null && cause.hasNonNull("errorMessage")) {
        message = cause.get("errorMessage").asText();
      }
    } catch (java.io.IOException e) {
      // Not a Lambda error document: the cause is shown as Step Functions gave it.
    }
    if (failed.error() == null || !failed.error().endsWith("ReplayRefused")) {
      return CommandFailure.refused(
          "replay execution "
              + failed.executionArn()
              + " "
              + failed.statusAsString()
              + ": "
              + failed.error()
              + ": "
              + message
              + "; its audit row and history say how far it got");
    }
    int colon = message.indexOf(": ");
    String shown =
        colon > 0 ? flagOf(message.substring(0, colon)) + message.substring(colon) : message;
    return CommandFailure.refused(
        shown
            + "; nothing was started (execution "
            + failed.executionArn()
            + " "
            + failed.statusAsString()
            + ": "
            + failed.error()
            + ")");
  }

  /** The replay state machine's input, exactly what an operator would write (README). */
  ObjectNode input() {
    ObjectNode in = JSON.createObjectNode();
    if (replayId != null) {
      in.put("replay_id", replayId);
    }
    in.put("requested_by", "protomolt replay (" + System.getProperty("user.name", "cli") + ")");
    in.put("account_id", account);
    ObjectNode selectors = in.putObject("selectors");
    if (docs != null) {
      docs.forEach(selectors.putArray("doc_ids")::add);
    }
    if (crawl != null) {
      selectors.put("crawl_id", crawl);
    }
    if (datasource != null) {
      selectors.put("datasource_id", datasource);
    }
    if (modifiedAfter != null) {
      selectors.put("modified_after", instant("--modified-after", modifiedAfter));
    }
    if (modifiedBefore != null) {
      selectors.put("modified_before", instant("--modified-before", modifiedBefore));
    }
    if (indexingOutcome != null) {
      selectors.put("indexing_outcome", indexingOutcome);
    }
    in.put("graph_id", graph);
    if (version == null) {
      in.put("graph_version", "active");
    } else {
      in.put("graph_version", version);
    }
    if (targetNode != null) {
      in.put("target_node", targetNode);
    }
    in.put("dry_run", dryRun);
    if (rate != null) {
      in.put("rate_per_second", rate);
    }
    if (pageSize != null) {
      in.put("page_size", pageSize);
    }
    return in;
  }

  private String instant(String flag, String text) {
    try {
      return Instant.parse(text).toString();
    } catch (DateTimeParseException e) {
      throw new ParameterException(
          spec.commandLine(),
          flag
              + ": must be an ISO-8601 instant such as"
              + " 2026-03-01T12:00:00Z, got '"
              + text
              + "'");
    }
  }

  /** The flag a refused input field came from, so the message names what the user typed. */
  private static String flagOf(String field) {
    return switch (field) {
      case "graph_id" -> "--graph";
      case "graph_version" -> "--version";
      case "account_id" -> "--account";
      case "target_node" -> "--target-node";
      case "rate_per_second" -> "--rate";
      case "page_size" -> "--page-size";
      case "selectors.modified_before" -> "--modified-before";
      case "selectors.modified_after" -> "--modified-after";
      case "selectors.indexing_outcome" -> "--indexing-outcome";
      default -> field.startsWith("selectors.doc_ids") ? "--doc" : field;
    };
  }
}
