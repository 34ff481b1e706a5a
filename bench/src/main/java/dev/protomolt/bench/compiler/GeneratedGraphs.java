package dev.protomolt.bench.compiler;

import dev.protomolt.proto.config.v1.GraphEdge;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.NodeType;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.TransportType;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A large graph shaped like real ones, reproducible from a seed: a few intake nodes feeding
 * layers of processors (each node routing to one to three nodes of the next layer with CEL
 * conditions, priorities and mixed edge behaviours), and sinks in the last layer.
 */
final class GeneratedGraphs {

  private GeneratedGraphs() {}

  static PipelineGraph layered(int nodeCount, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    PipelineGraph.Builder graph =
        PipelineGraph.newBuilder()
            .setGraphId("generated-" + nodeCount)
            .setClusterId("bench")
            .setName("Generated layered graph of " + nodeCount + " nodes")
            .setVersion(1);
    int intakes = 4;
    int width = 10;
    List<List<String>> layers = new ArrayList<>();
    List<String> first = new ArrayList<>();
    for (int i = 0; i < intakes; i++) {
      String id = "intake-" + i;
      graph.addNodes(
          GraphNode.newBuilder()
              .setNodeId(id)
              .setNodeType(NodeType.NODE_TYPE_INTAKE)
              .setDatasourceId("ds-" + i));
      first.add(id);
    }
    layers.add(first);
    int remaining = nodeCount - intakes;
    int layer = 1;
    while (remaining > 0) {
      List<String> current = new ArrayList<>();
      int size = Math.min(width, remaining);
      boolean last = remaining <= width;
      for (int i = 0; i < size; i++) {
        String id = (last ? "sink-" : "node-") + layer + "-" + i;
        GraphNode.Builder node =
            GraphNode.newBuilder()
                .setNodeId(id)
                .setName("Layer " + layer + " node " + i)
                .setNodeType(last ? NodeType.NODE_TYPE_SINK : NodeType.NODE_TYPE_PROCESSOR)
                .setModuleId("module-" + random.nextInt(12))
                .setSaveOnError(random.nextInt(4) == 0);
        graph.addNodes(node);
        current.add(id);
      }
      layers.add(current);
      remaining -= size;
      layer++;
    }
    TransportType[] behaviours = {
      TransportType.TRANSPORT_TYPE_PERSIST,
      TransportType.TRANSPORT_TYPE_CACHE,
      TransportType.TRANSPORT_TYPE_MEMORY
    };
    for (int l = 0; l + 1 < layers.size(); l++) {
      List<String> next = layers.get(l + 1);
      for (String from : layers.get(l)) {
        int fanOut = 1 + random.nextInt(3);
        for (int k = 0; k < fanOut; k++) {
          String to = next.get(random.nextInt(next.size()));
          graph.addEdges(
              GraphEdge.newBuilder()
                  .setEdgeId(from + "->" + to + "#" + k)
                  .setFromNodeId(from)
                  .setToNodeId(to)
                  .setPriority(k * 10)
                  .setCondition(
                      k == 0 ? "" : "document.search_metadata.content_length > " + (k * 1000))
                  .setTransportType(behaviours[random.nextInt(behaviours.length)]));
        }
      }
    }
    return graph.build();
  }
}
