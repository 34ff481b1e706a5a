package dev.protomolt.statemachines;

import dev.protomolt.proto.config.v1.GraphEdge;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.NodeType;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.TransportType;

/** Small graphs for compiler tests, built in code so each test shows the one thing it varies. */
final class Graphs {

  private Graphs() {}

  static PipelineGraph.Builder graph() {
    return PipelineGraph.newBuilder().setGraphId("g").setClusterId("c").setVersion(1);
  }

  static GraphNode.Builder intake(String id) {
    return GraphNode.newBuilder()
        .setNodeId(id)
        .setNodeType(NodeType.NODE_TYPE_INTAKE)
        .setDatasourceId("ds-" + id);
  }

  static GraphNode.Builder processor(String id) {
    return GraphNode.newBuilder()
        .setNodeId(id)
        .setNodeType(NodeType.NODE_TYPE_PROCESSOR)
        .setModuleId("module-" + id);
  }

  static GraphNode.Builder sink(String id) {
    return GraphNode.newBuilder()
        .setNodeId(id)
        .setNodeType(NodeType.NODE_TYPE_SINK)
        .setModuleId("sink-" + id);
  }

  static GraphEdge.Builder edge(String from, String to) {
    return GraphEdge.newBuilder()
        .setEdgeId(from + "-" + to)
        .setFromNodeId(from)
        .setToNodeId(to)
        .setTransportType(TransportType.TRANSPORT_TYPE_PERSIST);
  }

  /** intake -> p1 -> ... -> pN -> sink. */
  static PipelineGraph chain(int processors) {
    PipelineGraph.Builder g = graph().addNodes(intake("in"));
    String previous = "in";
    for (int i = 1; i <= processors; i++) {
      g.addNodes(processor("p" + i)).addEdges(edge(previous, "p" + i));
      previous = "p" + i;
    }
    return g.addNodes(sink("out")).addEdges(edge(previous, "out")).build();
  }
}
