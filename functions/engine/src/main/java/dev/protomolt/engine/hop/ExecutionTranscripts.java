package dev.protomolt.engine.hop;

import dev.protomolt.core.doclog.DocumentLog;
import dev.protomolt.core.doclog.DocumentLogRefusal;
import dev.protomolt.core.doclog.DocumentLogState;
import dev.protomolt.core.doclog.LogKey;
import dev.protomolt.core.doclog.WindowSpec;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.StepExecutionRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Each execution's hops and dispositions as one document log (seed 004), {@code
 * logs/executions/<execution name>} in the document's account, one line per event as the hop
 * functions see it (decision 1675): Prepare writes that a hop was handed to its module, and every
 * recorded step writes its disposition. Best effort: a line that cannot be written is counted and
 * dropped, never thrown, so a transcript never fails or holds an execution.
 */
public final class ExecutionTranscripts {

  private static final System.Logger LOG = System.getLogger(ExecutionTranscripts.class.getName());

  /** Rounds of append-at-the-length-just-read before a line is given up to a concurrent writer. */
  private static final int ATTEMPTS = 4;

  /** Writes nothing: the setting is off, or a caller has no log store. */
  public static final ExecutionTranscripts OFF = new ExecutionTranscripts(null);

  private final DocumentLog log;
  private final AtomicLong linesWritten = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();

  private ExecutionTranscripts(DocumentLog log) {
    this.log = log;
  }

  /** Transcripts written through {@code log}. */
  public static ExecutionTranscripts writingTo(DocumentLog log) {
    return new ExecutionTranscripts(Objects.requireNonNull(log, "log: must not be null"));
  }

  /** Whether this writes anything at all. */
  public boolean enabled() {
    return log != null;
  }

  /** Lines appended so far. */
  public long linesWritten() {
    return linesWritten.get();
  }

  /** Lines that could not be written (the execution went on regardless). */
  public long failures() {
    return failures.get();
  }

  /** Where the transcript of {@code executionArn} for a document of {@code accountId} lives. */
  public static LogKey keyOf(String accountId, String executionArn) {
    String name = executionArn.substring(executionArn.lastIndexOf(':') + 1);
    return LogKey.executionTranscript(LogKey.accountCollection(accountId), name);
  }

  /**
   * A hop that Prepare handed to its module, read back from a transcript: the {@code hop}-th hop
   * of the execution, at {@code nodeId}, queued at {@code queuedAt} for {@code moduleId} as {@code
   * workUnitId}, whose module log is {@code logs/work-units/<workUnitId>}.
   */
  public record QueuedHop(
      String queuedAt, int hop, String nodeId, String moduleId, String workUnitId) {}

  /** The line {@link #dispatched} writes; ids hold no spaces or parentheses. */
  private static final Pattern QUEUED =
      Pattern.compile(
          "^(\\S+) hop (\\d+) node (\\S+) queued for module (\\S+) \\(work unit (\\S+)\\)$");

  /**
   * The hops handed to modules, in the order the transcript names them; a line a retried Lambda
   * repeated names a work unit already listed and is skipped.
   */
  public static List<QueuedHop> queuedHops(String transcript) {
    List<QueuedHop> hops = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    for (String line : transcript.split("\n")) {
      Matcher m = QUEUED.matcher(line);
      if (m.matches() && seen.add(m.group(5))) {
        hops.add(
            new QueuedHop(
                m.group(1), Integer.parseInt(m.group(2)), m.group(3), m.group(4), m.group(5)));
      }
    }
    return hops;
  }

  /** Prepare handed the hop at {@code node} to its module as work unit {@code workUnitId}. */
  void dispatched(
      HopIdentity id, PipeStream stream, GraphNode node, String workUnitId, Instant at) {
    if (!enabled()) {
      return;
    }
    write(
        id,
        stream,
        at
            + " hop "
            + (stream.getMetadata().getHopCount() + 1)
            + " node "
            + id.nodeId()
            + " queued for module "
            + node.getModuleId()
            + " (work unit "
            + workUnitId
            + ")\n");
  }

  /** A step was recorded: the hop's disposition, where it goes next and why it failed. */
  void disposition(HopIdentity id, PipeStream stream, StepExecutionRecord step) {
    if (!enabled()) {
      return;
    }
    StringBuilder line =
        new StringBuilder()
            .append(
                Instant.ofEpochSecond(
                    step.getFinishedAt().getSeconds(), step.getFinishedAt().getNanos()))
            .append(" hop ")
            .append(step.getHopNumber())
            .append(" node ")
            .append(step.getNodeId())
            .append(' ')
            .append(step.getStatus().name().replaceFirst("^STEP_STATUS_", ""));
    if (step.getDestinationsCount() > 0) {
      line.append(" -> ").append(String.join(", ", step.getDestinationsList()));
    }
    if (step.hasError()) {
      line.append(" error ").append(step.getError().getCode());
      String why =
          step.getError().getMessage().isEmpty()
              ? step.getError().getDetail()
              : step.getError().getMessage();
      if (!why.isEmpty()) {
        line.append(": ").append(why.replace('\n', ' '));
      }
    }
    write(id, stream, line.append('\n').toString());
  }

  private void write(HopIdentity id, PipeStream stream, String line) {
    try {
      LogKey key = keyOf(stream.getMetadata().getAccountId(), id.executionId());
      for (int attempt = 1; ; attempt++) {
        DocumentLogState state = log.open(key, WindowSpec.DEFAULT);
        String text =
            state.length() == 0
                ? "# execution "
                    + id.executionId()
                    + " of doc "
                    + HopContext.docId(stream)
                    + " (graph "
                    + id.graphId()
                    + " v"
                    + id.graphVersion()
                    + ")\n"
                    + line
                : line;
        try {
          // At the length just read: a concurrent branch of the same execution makes this
          // conflict, and the next round appends after its line.
          log.append(key, text, state.length());
          linesWritten.incrementAndGet();
          return;
        } catch (DocumentLogRefusal refusal) {
          if (attempt == ATTEMPTS || refusal.reason() == DocumentLogRefusal.Reason.SEALED) {
            throw refusal;
          }
        }
      }
    } catch (RuntimeException e) {
      failures.incrementAndGet();
      LOG.log(
          System.Logger.Level.WARNING,
          "a transcript line of execution "
              + id.executionId()
              + " was not kept; the execution goes on",
          e);
    }
  }
}
