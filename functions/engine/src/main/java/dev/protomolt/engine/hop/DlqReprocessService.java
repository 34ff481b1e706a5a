package dev.protomolt.engine.hop;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.protomolt.core.graph.GraphStore;
import dev.protomolt.core.graph.GraphStore.StoredGraph;
import dev.protomolt.core.orchestration.StateMachineNames;
import dev.protomolt.core.orchestration.StateMachines;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.events.v1.DlqMessage;
import java.util.Objects;

/**
 * Reprocesses a dead letter: starts a new execution on the graph version the document was pinned
 * to, entering at the failed node, with the reprocess count in the stream incremented. Capped by
 * the node's {@code dlq_config.max_reprocess_count} (3 when unset); at the cap it refuses, naming
 * the count. The execution name is a hash of the dead letter and the attempt, so a repeated
 * request converges on the same execution.
 */
public final class DlqReprocessService {

  static final int DEFAULT_MAX_REPROCESS = 3;
  private static final JsonFormat.Printer JSON =
      JsonFormat.printer().omittingInsignificantWhitespace();

  private final GraphStore graphs;
  private final StateMachines machines;

  public DlqReprocessService(GraphStore graphs, StateMachines machines) {
    this.graphs = Objects.requireNonNull(graphs, "graphs");
    this.machines = Objects.requireNonNull(machines, "machines");
  }

  /**
   * How often {@code message} may be reprocessed: its node's {@code
   * dlq_config.max_reprocess_count}, 3 when unset.
   */
  public int capOf(DlqMessage message) {
    GraphNode node = nodeOf(message, pinned(message));
    return node.getDlqConfig().getMaxReprocessCount() > 0
        ? node.getDlqConfig().getMaxReprocessCount()
        : DEFAULT_MAX_REPROCESS;
  }

  /** Starts the reprocess execution and returns its name. */
  public String reprocess(DlqMessage message) {
    StoredGraph pinned = pinned(message);
    GraphNode node = nodeOf(message, pinned);
    int cap = capOf(message);
    if (message.getReprocessCount() >= cap) {
      throw new IllegalStateException(
          "dead letter "
              + message.getDlqId()
              + " was reprocessed "
              + message.getReprocessCount()
              + " times, the cap of node '"
              + node.getNodeId()
              + "' is "
              + cap
              + "; fix the cause and replay the document instead");
    }
    int attempt = message.getReprocessCount() + 1;
    PipeStream stream =
        message.getStream().toBuilder()
            .setMetadata(
                message.getStream().getMetadata().toBuilder()
                    .putContextParams(DlqService.REPROCESS_COUNT, Integer.toString(attempt)))
            .setCurrentNodeId(node.getNodeId())
            .build();
    if (!stream.hasDocument() && !stream.hasDocumentRef() && message.hasSavedBodyRef()) {
      // The failing state carried no body of its own; the one saved on error stands in for it.
      stream = stream.toBuilder().setDocumentRef(message.getSavedBodyRef()).build();
    }
    String name =
        StateMachineNames.hashOf("dlq-reprocess", message.getDlqId(), Integer.toString(attempt));
    String input;
    try {
      input =
          "{\"node\":"
              + HopJson.print(HopJson.MAPPER.getNodeFactory().textNode(node.getNodeId()))
              + ",\"stream\":"
              + JSON.print(stream)
              + "}";
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(
          "dead letter "
              + message.getDlqId()
              + " carries a stream that cannot "
              + "be printed as JSON: "
              + e.getMessage(),
          e);
    }
    machines.start(pinned.stateMachineVersionArn(), name, input);
    return name;
  }

  private StoredGraph pinned(DlqMessage message) {
    StoredGraph pinned =
        graphs
            .get(message.getGraphId(), message.getGraphVersion())
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "dead letter "
                            + message.getDlqId()
                            + " is pinned to graph '"
                            + message.getGraphId()
                            + "' version "
                            + message.getGraphVersion()
                            + ", which no longer exists"));
    if (pinned.stateMachineVersionArn().isEmpty()) {
      throw new IllegalStateException(
          "graph '"
              + message.getGraphId()
              + "' version "
              + message.getGraphVersion()
              + " has no published state machine version to reprocess on");
    }
    return pinned;
  }

  private static GraphNode nodeOf(DlqMessage message, StoredGraph pinned) {
    GraphNode node =
        pinned.graph().getNodesList().stream()
            .filter(n -> n.getNodeId().equals(message.getNodeId()))
            .findFirst()
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "dead letter "
                            + message.getDlqId()
                            + " names node '"
                            + message.getNodeId()
                            + "', which graph '"
                            + message.getGraphId()
                            + "' version "
                            + message.getGraphVersion()
                            + " does not have"));
    return node;
  }
}
