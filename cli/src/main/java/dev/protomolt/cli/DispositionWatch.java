package dev.protomolt.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.protomolt.proto.engine.v1.Admission;
import dev.protomolt.statemachines.ErrorNames;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;
import software.amazon.awssdk.services.sfn.model.HistoryEvent;

/**
 * Where uploaded documents stand: what intake admitted each to (read through the gateway's {@code
 * PlatformRunsService}, decision 1523) and how each admission's Step Functions execution ended. A document is terminal once it has at least one
 * admission since {@code since} and every such admission is terminal: UNBOUND or UNDEPLOYED
 * (recorded, nothing to run), or an execution no longer RUNNING. Each admission's ending names the
 * node where the walk stopped and the disposition, both read from what the runtime recorded: a
 * succeeded execution's output {@code {disposition, node}} (SINK_REACHED, REJECTED, DROPPED, ...,
 * the statemachines README's state contract), and for any other status the last state the history
 * entered ({@code <label>.DeadLettered} → DEAD_LETTERED at that node, decisions 0302 and 0980).
 */
final class DispositionWatch {

  /** The node column of an admission that started no execution. */
  static final String NO_EXECUTION = "(no execution)";

  /** A dead-lettered hop's disposition: its execution FAILED with ProtoMolt.DeadLettered. */
  static final String DEAD_LETTERED = "DEAD_LETTERED";

  /**
   * How one admission ended.
   *
   * @param graphId the graph the admission ran on (empty for an unbound datasource)
   * @param node the node id where the walk stopped, a hashed state label when the node id is not
   *     its own label (decision 0303), or {@link #NO_EXECUTION}
   * @param disposition SINK_REACHED, REJECTED, DROPPED, DEAD_LETTERED, UNBOUND, ... or the status
   *     and error of an execution that failed otherwise
   * @param memoized the nodes of the walk answered from a memo instead of their module (decision
   *     1812), as the succeeded execution's output lists them
   */
  record Ending(String graphId, String node, String disposition, List<String> memoized) {

    Ending {
      memoized = List.copyOf(memoized);
    }

    Ending(String graphId, String node, String disposition) {
      this(graphId, node, disposition, List.of());
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The admissions of a set of documents, as the platform recorded them since the watch began. */
  @FunctionalInterface
  interface Admissions {
    List<Admission> of(Collection<String> docIds);
  }

  private final Admissions admissions;
  private final SfnClient sfn;

  /** The running executions {@link #terminal} last found, by document. */
  private Map<String, List<String>> running = Map.of();

  /** Finished executions never change; remember them rather than describe them again. */
  private final Map<String, Ending> endedByArn = new HashMap<>();

  DispositionWatch(Admissions admissions, SfnClient sfn) {
    this.admissions = admissions;
    this.sfn = sfn;
  }

  /** Document id → how each of its admissions ended, for each of {@code docIds} terminal now. */
  Map<String, List<Ending>> terminal(Collection<String> docIds) {
    Map<String, List<String[]>> admissions = new LinkedHashMap<>();
    for (Admission r : this.admissions.of(docIds)) {
      admissions
          .computeIfAbsent(r.getDocId(), k -> new ArrayList<>())
          .add(new String[] {r.getGraphId(), r.getOutcome(), r.getExecutionArn()});
    }
    Map<String, List<Ending>> done = new TreeMap<>();
    Map<String, List<String>> open = new LinkedHashMap<>();
    for (Map.Entry<String, List<String[]>> doc : admissions.entrySet()) {
      List<Ending> endings = new ArrayList<>();
      boolean ended = true;
      for (String[] a : doc.getValue()) {
        Ending ending = ending(a[0], a[1], a[2]);
        if (ending == null) {
          ended = false;
          if (!a[2].isEmpty()) {
            open.computeIfAbsent(doc.getKey(), k -> new ArrayList<>()).add(a[2]);
          }
        } else {
          endings.add(ending);
        }
      }
      if (ended) {
        done.put(doc.getKey(), List.copyOf(endings));
      }
    }
    running = open;
    return done;
  }

  /**
   * Of the documents {@link #terminal} last found unfinished, how many wait for a module: one of
   * their executions' newest history event is its Work task's {@code TaskSubmitted}, so the
   * dispatch is on the module's topic and no module has answered it yet (decision 1657). One
   * history read per running execution, so callers ask less often than they poll.
   */
  int queued() {
    int queued = 0;
    for (List<String> arns : running.values()) {
      for (String arn : arns) {
        if (waitsForModule(sfn, arn)) {
          queued++;
          break;
        }
      }
    }
    return queued;
  }

  /**
   * Whether a running execution waits for a module: its newest history event is its Work task's
   * {@code TaskSubmitted} (decision 1657). One history read.
   */
  static boolean waitsForModule(SfnClient sfn, String executionArn) {
    List<HistoryEvent> newest =
        sfn.getExecutionHistory(
                b ->
                    b.executionArn(executionArn)
                        .reverseOrder(true)
                        .includeExecutionData(false)
                        .maxResults(1))
            .events();
    // Only a .waitForTaskToken task is submitted and then silent: the Work state (heartbeats add
    // no event, decision 1651).
    return !newest.isEmpty() && "TaskSubmitted".equals(newest.get(0).typeAsString());
  }

  /**
   * One document's endings as its summary line shows them: the disposition alone for one
   * admission, {@code graph:disposition} for each when intake admitted it to several graphs.
   */
  static String describe(List<Ending> endings) {
    List<String> parts = new ArrayList<>();
    for (Ending e : endings) {
      parts.add(
          endings.size() == 1 || e.graphId().isEmpty()
              ? e.disposition()
              : e.graphId() + ":" + e.disposition());
    }
    return String.join(", ", parts);
  }

  /**
   * What a document's line adds after its disposition: the nodes answered from a memo, or
   * nothing. Kept apart from {@link #describe} so dispositions still count alike.
   */
  static String memoNote(List<Ending> endings) {
    List<String> nodes = new ArrayList<>();
    if (endings != null) {
      endings.forEach(e -> nodes.addAll(e.memoized()));
    }
    return nodes.isEmpty() ? "" : " (memoized: " + String.join(", ", nodes) + ")";
  }

  /** The admission's ending, or null while its execution runs (or has not started). */
  private Ending ending(String graphId, String outcome, String executionArn) {
    if (outcome.equals("UNBOUND") || outcome.equals("UNDEPLOYED")) {
      return new Ending(graphId, NO_EXECUTION, outcome);
    }
    if (executionArn.isEmpty()) {
      return null;
    }
    Ending ended = endedByArn.get(executionArn);
    if (ended != null) {
      return ended;
    }
    DescribeExecutionResponse d = sfn.describeExecution(b -> b.executionArn(executionArn));
    if (d.status() == ExecutionStatus.RUNNING) {
      return null;
    }
    ended = endingOf(graphId, d);
    endedByArn.put(executionArn, ended);
    return ended;
  }

  /** How a finished execution ended, from its output or, if it did not succeed, its history. */
  Ending endingOf(String graphId, DescribeExecutionResponse d) {
    if (d.status() != ExecutionStatus.SUCCEEDED) {
      String disposition =
          ErrorNames.DEAD_LETTERED.equals(d.error())
              ? DEAD_LETTERED
              : d.status() + (d.error() == null ? "" : " (" + d.error() + ")");
      return new Ending(graphId, lastStateLabel(d.executionArn()), disposition);
    }
    try {
      JsonNode out = JSON.readTree(d.output());
      List<String> memoized = new ArrayList<>();
      out.path("memoized").forEach(n -> memoized.add(n.asText()));
      return new Ending(
          graphId,
          out.path("node").asText("-"),
          out.path("disposition").asText("SUCCEEDED"),
          memoized);
    } catch (IOException e) {
      return new Ending(graphId, "-", "SUCCEEDED (unreadable output)");
    }
  }

  /**
   * The label of the last state the execution entered, read from the newest history events: for
   * a dead letter {@code parse.DeadLettered} gives {@code parse}. States are {@code
   * <label>.<Suffix>} (decision 0303), so the label is everything before the last dot.
   */
  private String lastStateLabel(String executionArn) {
    for (HistoryEvent event :
        sfn.getExecutionHistory(
                b ->
                    b.executionArn(executionArn)
                        .reverseOrder(true)
                        .includeExecutionData(false)
                        .maxResults(25))
            .events()) {
      if (event.stateEnteredEventDetails() != null) {
        return labelOf(event.stateEnteredEventDetails().name());
      }
    }
    return "-";
  }

  static String labelOf(String stateName) {
    int dot = stateName.lastIndexOf('.');
    return dot > 0 ? stateName.substring(0, dot) : stateName;
  }
}
