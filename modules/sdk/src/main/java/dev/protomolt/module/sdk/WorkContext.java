package dev.protomolt.module.sdk;

import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.module.v1.WorkUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One work unit as a processor sees it: the hydrated document, the node's config, and two ways to
 * talk back while working: {@link #progress(String)} rides the next heartbeat and {@link
 * #log(String)} lines travel with the ack as the work unit's document log.
 */
public final class WorkContext {

  private final WorkUnit unit;
  private final CustomConfig config;
  private final List<String> logLines = new ArrayList<>();
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

  public void log(String line) {
    synchronized (logLines) {
      logLines.add(line);
    }
  }

  public List<String> logLines() {
    synchronized (logLines) {
      return List.copyOf(logLines);
    }
  }
}
