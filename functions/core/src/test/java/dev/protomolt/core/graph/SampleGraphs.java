package dev.protomolt.core.graph;

import dev.protomolt.proto.config.v1.GraphEdge;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.NodeType;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.TransportType;
import java.util.List;

/** Small graphs the graph, validation and routing tests share. */
public final class SampleGraphs {

  private SampleGraphs() {}

  public static GraphNode intake(String id, String datasource) {
    return GraphNode.newBuilder()
        .setNodeId(id)
        .setName(id)
        .setNodeType(NodeType.NODE_TYPE_INTAKE)
        .setDatasourceId(datasource)
        .build();
  }

  public static GraphNode processor(String id, String module) {
    return GraphNode.newBuilder()
        .setNodeId(id)
        .setName(id)
        .setNodeType(NodeType.NODE_TYPE_PROCESSOR)
        .setModuleId(module)
        .build();
  }

  public static GraphNode sink(String id, String... plans) {
    return GraphNode.newBuilder()
        .setNodeId(id)
        .setName(id)
        .setNodeType(NodeType.NODE_TYPE_SINK)
        .setModuleId("opensearch-sink")
        .addAllIndexPlanIds(List.of(plans))
        .build();
  }

  public static GraphEdge edge(String id, String from, String to) {
    return GraphEdge.newBuilder()
        .setEdgeId(id)
        .setFromNodeId(from)
        .setToNodeId(to)
        .setTransportType(TransportType.TRANSPORT_TYPE_PERSIST)
        .build();
  }

  public static GraphEdge edge(String id, String from, String to, String condition, int priority) {
    return edge(id, from, to).toBuilder().setCondition(condition).setPriority(priority).build();
  }

  /** intake -> parser -> chunker -> sink, valid in every mode for account "acme". */
  public static PipelineGraph linear(String graphId, long version) {
    return PipelineGraph.newBuilder()
        .setGraphId(graphId)
        .setClusterId("c1")
        .setAccountId("acme")
        .setName("linear")
        .setVersion(version)
        .addNodes(intake("in", "ds-1"))
        .addNodes(processor("parse", "parser"))
        .addNodes(processor("chunk", "chunker"))
        .addNodes(sink("index", "plan-1"))
        .addEdges(edge("e1", "in", "parse"))
        .addEdges(edge("e2", "parse", "chunk", "document.search_metadata.language == 'en'", 0))
        .addEdges(edge("e3", "chunk", "index"))
        .build();
  }
}
