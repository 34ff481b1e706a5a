package dev.protomolt.bench.routing;

import dev.protomolt.core.cel.CelInput;
import dev.protomolt.core.cel.CompiledExpression;
import dev.protomolt.core.cel.ExpressionShape;
import dev.protomolt.core.cel.PipelineCelEnvironment;
import dev.protomolt.core.graph.GraphTopology;
import dev.protomolt.core.routing.EdgeRouter;
import dev.protomolt.core.routing.RoutingDecision;
import dev.protomolt.proto.config.v1.GraphEdge;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.NodeType;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.TransportType;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.data.v1.StreamMetadata;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Routing one document out of a node with five conditional edges, next to the cost of one
 * compiled CEL evaluation (the baseline) measured in the same run. The trial fails if any
 * expression is compiled after the graph version was loaded.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 10, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx512m"})
public class RoutingBenchmark {

  /** The seeds' expressions, one per edge, all true for the benchmark document but the last. */
  static final String[] CONDITIONS = {
    "metadata.context_params['priority'] == 'high'",
    "document.search_metadata.language == 'en'",
    "document.search_metadata.content_length > 1000",
    "document.search_metadata.source_mime_type == 'application/pdf'",
    "stream.metadata.context_params['skip_processing'] == 'true'",
  };

  PipelineCelEnvironment env;
  GraphTopology topology;
  CelInput input;
  Map<String, Object> activation;
  CompiledExpression single;
  CompiledExpression[] allFive;
  long compilationsAfterLoad;

  @Setup(Level.Trial)
  public void load() {
    env = PipelineCelEnvironment.create();
    topology = GraphTopology.load(fiveEdgeGraph(), env);
    single = env.compile("edge:baseline", CONDITIONS[1], ExpressionShape.PREDICATE);
    allFive = new CompiledExpression[CONDITIONS.length];
    for (int i = 0; i < CONDITIONS.length; i++) {
      allFive[i] = env.compile("edge:direct-" + i, CONDITIONS[i], ExpressionShape.PREDICATE);
    }
    compilationsAfterLoad = env.compilations();
    input = new CelInput(document(), stream());
    activation = input.activation();
  }

  @TearDown(Level.Trial)
  public void noCompileAfterLoad() {
    long after = env.compilations() - compilationsAfterLoad;
    System.out.println("compilations after load: " + after);
    if (after != 0) {
      throw new IllegalStateException(after + " expression(s) compiled on the hot path");
    }
  }

  /** One full routing decision: five conditions by priority into destinations. */
  @Benchmark
  public RoutingDecision routeFiveEdges() {
    return EdgeRouter.route(topology, "router", input);
  }

  /** Baseline: one compiled CEL predicate against a prepared activation. */
  @Benchmark
  public boolean oneCompiledCelEvaluation() {
    return single.test(activation);
  }

  /** The five edge conditions evaluated directly: routing minus this is the router's own overhead. */
  @Benchmark
  public int fiveCompiledCelEvaluations() {
    int taken = 0;
    for (CompiledExpression e : allFive) {
      if (e.test(activation)) {
        taken++;
      }
    }
    return taken;
  }

  static PipelineGraph fiveEdgeGraph() {
    PipelineGraph.Builder g =
        PipelineGraph.newBuilder()
            .setGraphId("bench")
            .setClusterId("c")
            .setVersion(1)
            .addNodes(
                GraphNode.newBuilder()
                    .setNodeId("router")
                    .setNodeType(NodeType.NODE_TYPE_PROCESSOR)
                    .setModuleId("m"));
    for (int i = 0; i < CONDITIONS.length; i++) {
      g.addNodes(
          GraphNode.newBuilder()
              .setNodeId("out" + i)
              .setNodeType(NodeType.NODE_TYPE_PROCESSOR)
              .setModuleId("m"));
      g.addEdges(
          GraphEdge.newBuilder()
              .setEdgeId("e" + i)
              .setFromNodeId("router")
              .setToNodeId("out" + i)
              .setCondition(CONDITIONS[i])
              .setPriority(i)
              .setMaxHops(50)
              .setTransportType(
                  i % 2 == 0
                      ? TransportType.TRANSPORT_TYPE_PERSIST
                      : TransportType.TRANSPORT_TYPE_MEMORY));
    }
    return g.build();
  }

  static PipeDoc document() {
    return PipeDoc.newBuilder()
        .setDocId("doc-1")
        .setSearchMetadata(
            SearchMetadata.newBuilder()
                .setLanguage("en")
                .setContentLength(4200)
                .setSourceMimeType("application/pdf")
                .setTitle("Quarterly report"))
        .build();
  }

  static PipeStream stream() {
    return PipeStream.newBuilder()
        .setStreamId("s-1")
        .setMetadata(
            StreamMetadata.newBuilder()
                .setHopCount(3)
                .setGraphId("bench")
                .setGraphVersion(1)
                .putContextParams("priority", "high")
                .putContextParams("skip_processing", "false"))
        .build();
  }
}
