package dev.protomolt.module.sdk;

import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.events.v1.DocumentIndexedEvent;
import dev.protomolt.proto.module.v1.LogText;
import dev.protomolt.proto.module.v1.WorkUnit;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * One work unit as a processor sees it: the hydrated document, the node's config, and three ways to
 * talk back while working: {@link #progress(String)} rides the next heartbeat; {@link #log(String)}
 * lines become the work unit's document log, the lines written since the last heartbeat travelling
 * with the next one and the rest with the ack, each piece at its char offset in that log (the
 * unit's {@code log_offset} plus what was sent before), so the gateway writes and indexes a part
 * the moment its window completes and recognises a repeated piece by its offset; and a sink's
 * {@link #receipt(DocumentIndexedEvent) indexing receipts} travel with the ack, for the gateway to
 * produce to {@code indexing-receipts} (the indexing ledger and settlement read them there).
 */
public final class WorkContext {

  /** How severe a log line is; written as its name after the line's instant (decision 1754). */
  public enum LogLevel {
    DEBUG,
    INFO,
    WARN,
    ERROR
  }

  private final WorkUnit unit;
  private final CustomConfig config;
  private final Supplier<Instant> clock;
  private final List<String> logLines = new ArrayList<>();
  private final List<DocumentIndexedEvent> receipts = new ArrayList<>();
  private final StringBuilder logText = new StringBuilder();
  private int logSent;
  private volatile String progress = "";

  private WorkContext(WorkUnit unit, Supplier<Instant> clock) {
    this.unit = Objects.requireNonNull(unit, "unit");
    this.config = new CustomConfig(unit.getCustomConfig());
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** A context for one work unit; public so processors can be unit-tested without a gateway. */
  public static WorkContext forUnit(WorkUnit unit) {
    return new WorkContext(unit, Instant::now);
  }

  /** A context whose log lines are stamped with {@code clock}'s instants. */
  public static WorkContext forUnit(WorkUnit unit, Supplier<Instant> clock) {
    return new WorkContext(unit, clock);
  }

  public WorkUnit unit() {
    return unit;
  }

  public String workUnitId() {
    return unit.getWorkUnitId();
  }

  public PipeStream stream() {
    return unit.getStream();
  }

  /** The hydrated document; the worker loop rejects a unit without one before calling you. */
  public PipeDoc document() {
    return unit.getStream().getDocument();
  }

  public String nodeId() {
    return unit.getNodeId();
  }

  public String graphId() {
    return unit.getGraphId();
  }

  public long graphVersion() {
    return unit.getGraphVersion();
  }

  public int attempt() {
    return unit.getAttempt();
  }

  public boolean blobContentIncluded() {
    return unit.getBlobContentIncluded();
  }

  public CustomConfig config() {
    return config;
  }

  /** Replaces the progress text sent with the next heartbeat. */
  public void progress(String text) {
    this.progress = text == null ? "" : text;
  }

  public String progress() {
    return progress;
  }

  /** Adds one INFO line to the work unit's document log; see {@link #log(LogLevel, String)}. */
  public void log(String line) {
    log(LogLevel.INFO, line);
  }

  /**
   * Adds one line to the work unit's document log as {@code <instant> <LEVEL> <line>\n}, the
   * instant in ISO-8601 UTC, so a reader of the log (the console's document journey) can tell when
   * and how severe each line was without the gateway stamping text it only sees in batches
   * (decision 1754). A line holding newlines is kept on one log line, each newline written as the
   * two characters backslash and n.
   */
  public void log(LogLevel level, String line) {
    String text = line == null ? "" : line.replace("\r", "").replace("\n", "\\n");
    String stamped = clock.get() + " " + Objects.requireNonNull(level, "level").name() + " " + text;
    synchronized (logLines) {
      logLines.add(text);
      logText.append(stamped).append('\n');
    }
  }

  /**
   * The log text not yet sent, at its offset in the work unit's log, and marks it sent; empty text
   * when nothing new was logged. The heartbeat and the ack take their piece from here.
   */
  public LogText takeUnsentLog() {
    synchronized (logLines) {
      String text = logText.substring(logSent);
      long offset = unit.getLogOffset() + logSent;
      logSent = logText.length();
      return LogText.newBuilder().setText(text).setOffset(offset).build();
    }
  }

  /** The lines as the processor logged them, without their instants and levels. */
  public List<String> logLines() {
    synchronized (logLines) {
      return List.copyOf(logLines);
    }
  }

  /** SINK nodes: the index plans this node writes; a receipt's {@code plan_id} is one of them. */
  public List<String> indexPlanIds() {
    return unit.getIndexPlanIdsList();
  }

  /**
   * The stored state at this hop's address, the {@code node_id} a receipt names (settlement acts
   * on it). Not the graph node id, which is {@link #nodeId()}.
   */
  public String storedNodeId() {
    return unit.getStoredNodeId();
  }

  /**
   * Sends an indexing receipt with the ack. The gateway refuses the ack when a receipt names
   * another document, graph or stored state, or a plan this node does not write; a blank {@code
   * plan_id} is filled when the node writes exactly one plan, and blank graph fields and {@code
   * node_id} are filled from the work unit.
   */
  public void receipt(DocumentIndexedEvent receipt) {
    Objects.requireNonNull(receipt, "receipt");
    synchronized (receipts) {
      receipts.add(receipt);
    }
  }

  public List<DocumentIndexedEvent> receipts() {
    synchronized (receipts) {
      return List.copyOf(receipts);
    }
  }
}
