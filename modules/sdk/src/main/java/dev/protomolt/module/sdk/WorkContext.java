package dev.protomolt.module.sdk;

import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.events.v1.DocumentIndexedEvent;
import dev.protomolt.proto.module.v1.WorkUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One work unit as a processor sees it: the hydrated document, the node's config, and three ways to
 * talk back while working: {@link #progress(String)} rides the next heartbeat, {@link
 * #log(String)} lines travel with the ack as the work unit's document log, and a sink's {@link
 * #receipt(DocumentIndexedEvent) indexing receipts} travel with the ack too, for the gateway to
 * produce to {@code indexing-receipts} (the indexing ledger and settlement read them there).
 */
public final class WorkContext {

  private final WorkUnit unit;
  private final CustomConfig config;
  private final List<String> logLines = new ArrayList<>();
  private final List<DocumentIndexedEvent> receipts = new ArrayList<>();
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
