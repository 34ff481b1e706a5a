package dev.protomolt.bench.hydration;

import com.google.protobuf.ByteString;
import com.google.protobuf.util.JsonFormat;
import dev.protomolt.core.cel.PipelineCelEnvironment;
import dev.protomolt.core.graph.GraphCache;
import dev.protomolt.core.graph.GraphVersionSource;
import dev.protomolt.engine.hop.CompleteService;
import dev.protomolt.engine.hop.HopContext;
import dev.protomolt.engine.hop.PipeDocStoreStaging;
import dev.protomolt.proto.config.v1.GraphEdge;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.ModuleCapabilities;
import dev.protomolt.proto.config.v1.NodeType;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.TransportType;
import dev.protomolt.proto.data.v1.Blob;
import dev.protomolt.proto.data.v1.BlobBag;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.data.v1.StreamMetadata;
import dev.protomolt.repository.fixtures.StoreHarness;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Bytes read from the object store by one {@code Complete} hop, before and after hydration level 2
 * moved out of Complete, in one run on S3Proxy and embedded PostgreSQL. "Before" is the read
 * Complete made on every hop until decision 1623 (every part, blob bytes included); "after" is the
 * real {@link CompleteService} handling the hop, counted at the S3 client. A PERSIST edge carries
 * the blobs by server-side copy; a MEMORY edge still reads them, because the whole body travels
 * inline. {@code -Dbench.quick=true} runs the smallest blob only.
 */
public final class CompleteBytesReadMain {

  private static final String ACCOUNT = "bench";
  private static final String GRAPH = "bench-hydration";

  private CompleteBytesReadMain() {}

  public static void main(String[] args) throws Exception {
    boolean quick = Boolean.getBoolean("bench.quick");
    int[] blobSizes = quick ? new int[] {64 * 1024} : new int[] {64 * 1024, 1024 * 1024, 8 << 20};
    try (StoreHarness harness = StoreHarness.start()) {
      harness.store.onAccountEvent(StoreHarness.platformAccount(ACCOUNT));
      PipeDocStoreStaging staging = new PipeDocStoreStaging(harness.store);
      PipelineGraph graph = graph();
      GraphVersionSource source =
          new GraphVersionSource() {
            @Override
            public Optional<PipelineGraph> load(String graphId, long version) {
              return Optional.of(graph);
            }

            @Override
            public Optional<PipelineGraph> loadActive(String graphId) {
              return Optional.of(graph);
            }
          };
      CompleteService complete =
          new CompleteService(
              new HopContext(
                  new GraphCache(
                      source,
                      PipelineCelEnvironment.create(),
                      InstantSource.system(),
                      Duration.ofMinutes(30)),
                  staging,
                  (topic, key, value) -> {},
                  InstantSource.system(),
                  HopContext.DEFAULT_INLINE_LIMIT));
      System.out.printf(
          Locale.ROOT,
          "%-8s %12s %16s %16s %10s%n",
          "edge",
          "blob bytes",
          "before: read",
          "after: read",
          "after/before");
      int n = 0;
      for (int size : blobSizes) {
        for (String node : new String[] {"parse", "chunk"}) {
          if (node.equals("chunk") && size > 96 * 1024) {
            continue; // A MEMORY copy this large ducks; the inline case is the point of the row.
          }
          String docId = "doc-" + n++;
          DocumentReference input =
              staging.stage(document(docId, size), ACCOUNT, GRAPH, node, true);
          long start = received(harness);
          staging.hydrate(input, Set.of(), true);
          long before = received(harness) - start;
          start = received(harness);
          complete.handle(payload(node, input));
          long after = received(harness) - start;
          System.out.printf(
              Locale.ROOT,
              "%-8s %,12d %,16d %,16d %10.3f%n",
              node.equals("parse") ? "PERSIST" : "MEMORY",
              size,
              before,
              after,
              after / (double) before);
        }
      }
    }
  }

  private static long received(StoreHarness harness) {
    return harness.counter.bytesReceived("GetObject");
  }

  private static PipelineGraph graph() {
    return PipelineGraph.newBuilder()
        .setGraphId(GRAPH)
        .setClusterId("bench")
        .setAccountId(ACCOUNT)
        .setVersion(1)
        .addNodes(
            GraphNode.newBuilder()
                .setNodeId("in")
                .setNodeType(NodeType.NODE_TYPE_INTAKE)
                .setDatasourceId("ds"))
        .addNodes(
            module("parse").toBuilder()
                .setCapabilities(ModuleCapabilities.newBuilder().setNeedsBlobContent(true)))
        .addNodes(module("chunk"))
        .addNodes(module("index").toBuilder().setNodeType(NodeType.NODE_TYPE_SINK))
        .addEdges(edge("e1", "in", "parse", TransportType.TRANSPORT_TYPE_PERSIST))
        .addEdges(edge("e2", "parse", "chunk", TransportType.TRANSPORT_TYPE_PERSIST))
        .addEdges(edge("e3", "chunk", "index", TransportType.TRANSPORT_TYPE_MEMORY))
        .build();
  }

  private static GraphNode module(String id) {
    return GraphNode.newBuilder()
        .setNodeId(id)
        .setNodeType(NodeType.NODE_TYPE_PROCESSOR)
        .setModuleId(id + "-module")
        .build();
  }

  private static GraphEdge edge(String id, String from, String to, TransportType transport) {
    return GraphEdge.newBuilder()
        .setEdgeId(id)
        .setFromNodeId(from)
        .setToNodeId(to)
        .setTransportType(transport)
        .build();
  }

  private static PipeDoc document(String docId, int blobBytes) {
    byte[] bytes = new byte[blobBytes];
    new java.util.Random(blobBytes).nextBytes(bytes);
    return PipeDoc.newBuilder()
        .setDocId(docId)
        .setSearchMetadata(
            SearchMetadata.newBuilder().setTitle("Quarterly report").setBody("x".repeat(4000)))
        .setBlobBag(
            BlobBag.newBuilder()
                .setBlob(
                    Blob.newBuilder()
                        .setBlobId("original")
                        .setMimeType("application/pdf")
                        .setData(ByteString.copyFrom(bytes))))
        .build();
  }

  private static String payload(String node, DocumentReference input) throws Exception {
    PipeStream stream =
        PipeStream.newBuilder()
            .setStreamId("s-" + input.getDocId())
            .setDocumentRef(input)
            .setMetadata(
                StreamMetadata.newBuilder()
                    .setAccountId(ACCOUNT)
                    .setGraphId(GRAPH)
                    .setGraphVersion(1))
            .build();
    return "{\"graphId\":\""
        + GRAPH
        + "\",\"graphVersion\":1,\"clusterId\":\"bench\",\"nodeId\":\""
        + node
        + "\",\"executionId\":\"arn:aws:states:us-east-1:000000000000:execution:bench:"
        + input.getDocId()
        + "\",\"outcome\":\"CONTINUE\",\"workUnitId\":\"wu-"
        + input.getDocId()
        + "\",\"stream\":"
        + JsonFormat.printer().omittingInsignificantWhitespace().print(stream)
        + "}";
  }
}
