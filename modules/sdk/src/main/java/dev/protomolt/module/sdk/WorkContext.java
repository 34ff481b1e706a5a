package dev.protomolt.module.sdk;

import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.module.v1.LogText;
import dev.protomolt.proto.module.v1.WorkUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One work unit as a processor sees it: the hydrated document, the node's config, and two ways to
 * talk back while working: {@link #progress(String)} rides the next heartbeat, and {@link
 * #log(String)} lines become the work unit's document log. Lines written since the last heartbeat
 * travel with the next one, the rest with the ack, each piece at its char offset in that log (the
 * unit's {@code log_offset} plus what was sent before), so the gateway writes and indexes a part the
 * moment its window completes and recognises a repeated piece by its offset.
 */
public final class WorkContext {

  private final WorkUnit unit;
  private final CustomConfig config;
  private final List<String> logLines = new ArrayList<>();
  private final StringBuilder logText = new StringBuilder();
  private int logSent;
  private volatile String progress = "";

  private WorkContext(WorkUnit unit) {
    this.unit = Objects.requireNonNull(unit, "unit");
    this.config = new CustomConfig(unit.getCustomConfig());
  }

  /** A context for one work unit; public so processors can be unit-tested without a gateway. */
  public static WorkContext forUnit(WorkUnit unit) {
    return new WorkContext(unit);
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

  /** Adds one line (a newline is appended) to the work unit's document log. */
  public void log(String line) {
    String text = line == null ? "" : line;
    synchronized (logLines) {
      logLines.add(text);
      logText.append(text).append('\n');
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

  public List<String> logLines() {
    synchronized (logLines) {
      return List.copyOf(logLines);
    }
  }
}
