package dev.protomolt.cli;

import dev.protomolt.module.samples.chunker.ChunkerModule;
import dev.protomolt.module.samples.embedder.EmbedderModule;
import dev.protomolt.module.samples.parser.ParserModule;
import dev.protomolt.module.samples.sink.IndexSinkModule;
import dev.protomolt.proto.config.v1.GraphEdge;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.ModuleCapabilities;
import dev.protomolt.proto.config.v1.NodeType;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.TransportType;

/**
 * The demo pipeline: intake → parser → chunker → embedder → index sink, every edge PERSIST so each
 * hop's document stays in the store to be inspected. Only the parser reads the uploaded bytes.
 */
public final class DemoGraph {

  public static final String GRAPH_ID = "demo";
  public static final String INTAKE = "intake";
  public static final String PARSE = "parse";
  public static final String CHUNK = "chunk";
  public static final String EMBED = "embed";
  public static final String INDEX = "index";

  private DemoGraph() {}

  /** The demo graph for {@code accountId}, fed by {@code datasourceId}, on {@code clusterId}. */
  public static PipelineGraph of(String accountId, String datasourceId, String clusterId) {
    return PipelineGraph.newBuilder()
        .setGraphId(GRAPH_ID)
        .setClusterId(clusterId)
        .setAccountId(accountId)
        .setName("demo")
        .addNodes(
            GraphNode.newBuilder()
                .setNodeId(INTAKE)
                .setName("intake")
                .setNodeType(NodeType.NODE_TYPE_INTAKE)
                .setDatasourceId(datasourceId))
        .addNodes(
            module(PARSE, ParserModule.MODULE_ID, NodeType.NODE_TYPE_PROCESSOR).toBuilder()
                .setCapabilities(ModuleCapabilities.newBuilder().setNeedsBlobContent(true)))
        .addNodes(module(CHUNK, ChunkerModule.MODULE_ID, NodeType.NODE_TYPE_PROCESSOR))
        .addNodes(module(EMBED, EmbedderModule.MODULE_ID, NodeType.NODE_TYPE_PROCESSOR))
        .addNodes(
            module(INDEX, IndexSinkModule.MODULE_ID, NodeType.NODE_TYPE_SINK).toBuilder()
                .addIndexPlanIds(IndexSinkModule.INDEX_NAME))
        .addEdges(persist("intake-parse", INTAKE, PARSE))
        .addEdges(persist("parse-chunk", PARSE, CHUNK))
        .addEdges(persist("chunk-embed", CHUNK, EMBED))
        .addEdges(persist("embed-index", EMBED, INDEX))
        .build();
  }

  private static GraphNode module(String nodeId, String moduleId, NodeType type) {
    return GraphNode.newBuilder()
        .setNodeId(nodeId)
        .setName(nodeId)
        .setNodeType(type)
        .setModuleId(moduleId)
        .build();
  }

  private static GraphEdge persist(String id, String from, String to) {
    return GraphEdge.newBuilder()
        .setEdgeId(id)
        .setFromNodeId(from)
        .setToNodeId(to)
        .setTransportType(TransportType.TRANSPORT_TYPE_PERSIST)
        .build();
  }
}
