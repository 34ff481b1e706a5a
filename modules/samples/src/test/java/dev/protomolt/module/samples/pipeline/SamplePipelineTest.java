package dev.protomolt.module.samples.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.protomolt.module.samples.chunker.ChunkerModule;
import dev.protomolt.module.samples.chunker.DocumentChunker;
import dev.protomolt.module.samples.embedder.DocumentEmbedder;
import dev.protomolt.module.samples.embedder.EmbedderModule;
import dev.protomolt.module.samples.embedder.HashedNgramEmbedder;
import dev.protomolt.module.samples.parser.DocumentParser;
import dev.protomolt.module.samples.parser.ParserModule;
import dev.protomolt.module.samples.sink.DocumentIndexSink;
import dev.protomolt.module.samples.sink.IndexSinkModule;
import dev.protomolt.module.samples.sink.LuceneIndex;
import dev.protomolt.module.samples.sink.UlidGenerator;
import dev.protomolt.module.sdk.DocumentProcessor;
import dev.protomolt.module.sdk.ModuleWorker;
import dev.protomolt.module.sdk.WorkerClock;
import dev.protomolt.module.sdk.WorkerConfig;
import dev.protomolt.proto.data.v1.Blob;
import dev.protomolt.proto.data.v1.BlobBag;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.events.v1.DocumentIndexedEvent;
import dev.protomolt.proto.module.v1.RejectReason;
import dev.protomolt.proto.module.v1.WorkAck;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The four samples as real gRPC clients: each runs in its own ModuleWorker on one shared channel,
 * pulling from a relay gateway that hands every document along parser → chunker → embedder →
 * index-sink. Ends with a search hit in the Lucene index and one receipt per indexed document.
 */
class SamplePipelineTest {

  @TempDir Path folder;

  private static PipeDoc upload(String file, String mime) throws Exception {
    byte[] bytes;
    try (InputStream in = SamplePipelineTest.class.getResourceAsStream("/samples/" + file)) {
      bytes = in.readAllBytes();
    }
    return PipeDoc.newBuilder()
        .setDocId(file)
        .setBlobBag(
            BlobBag.newBuilder()
                .setBlob(
                    Blob.newBuilder()
                        .setData(ByteString.copyFrom(bytes))
                        .setMimeType(mime)
                        .setFilename(file)))
        .build();
  }

  @Test
  void documentsFlowThroughAllFourSamplesIntoASearchableIndex() throws Exception {
    List<String> chain =
        List.of(
            ParserModule.MODULE_ID,
            ChunkerModule.MODULE_ID,
            EmbedderModule.MODULE_ID,
            IndexSinkModule.MODULE_ID);
    RelayGateway gateway = new RelayGateway(chain, 4);
    String name = InProcessServerBuilder.generateName();
    Server server = InProcessServerBuilder.forName(name).addService(gateway).build().start();
    ManagedChannel channel = InProcessChannelBuilder.forName(name).build();
    List<DocumentIndexedEvent> receipts = Collections.synchronizedList(new ArrayList<>());
    Clock clock = Clock.systemUTC();
    List<ModuleWorker> workers = new ArrayList<>();
    try (LuceneIndex index = LuceneIndex.open(folder.resolve("index"))) {
      Map<String, DocumentProcessor> processors =
          Map.of(
              ParserModule.MODULE_ID, new DocumentParser(clock),
              ChunkerModule.MODULE_ID, new DocumentChunker(),
              EmbedderModule.MODULE_ID, new DocumentEmbedder(),
              IndexSinkModule.MODULE_ID,
                  new DocumentIndexSink(
                      index,
                      receipts::add,
                      IndexSinkModule.INDEX_NAME,
                      clock,
                      new UlidGenerator(clock, new Random())));
      for (String module : chain) {
        ModuleWorker worker =
            new ModuleWorker(
                channel, WorkerConfig.of(module, 2), processors.get(module), WorkerClock.system());
        worker.start();
        workers.add(worker);
      }

      gateway.ingest(upload("harbour-notes.txt", "text/plain"));
      gateway.ingest(upload("lighthouse.html", "text/html"));
      gateway.ingest(upload("tide-tables.md", "text/markdown"));
      gateway.ingest(
          upload("harbour-notes.txt", "image/png").toBuilder().setDocId("photo.png").build());

      assertThat(gateway.settled().await(30, TimeUnit.SECONDS))
          .as("every document settled")
          .isTrue();

      Map<String, WorkAck> terminal = gateway.terminal;
      assertThat(terminal.get("photo.png").getReject().getReason())
          .isEqualTo(RejectReason.REJECT_REASON_UNSUPPORTED_CONTENT);
      for (String indexed : List.of("harbour-notes.txt", "lighthouse.html", "tide-tables.md")) {
        assertThat(terminal.get(indexed).hasUpdatedPayload())
            .as(indexed + " reached the sink")
            .isTrue();
      }
      assertThat(receipts)
          .extracting(DocumentIndexedEvent::getDocId)
          .containsExactlyInAnyOrder("harbour-notes.txt", "lighthouse.html", "tide-tables.md");

      assertThat(index.search().text("tide tables", 3).getFirst().docId())
          .isEqualTo("tide-tables.md");
      assertThat(
              index
                  .search()
                  .vector(
                      "the lamp was lit at dusk and the fog signal sounded",
                      new HashedNgramEmbedder(256),
                      1))
          .singleElement()
          .satisfies(hit -> assertThat(hit.docId()).isEqualTo("lighthouse.html"));
    } finally {
      for (ModuleWorker worker : workers) {
        worker.shutdown();
      }
      for (ModuleWorker worker : workers) {
        assertThat(worker.awaitTermination(Duration.ofSeconds(10))).isTrue();
      }
      // One channel served all four workers and is still usable until its owner closes it.
      assertThat(channel.isShutdown()).isFalse();
      channel.shutdownNow();
      server.shutdownNow();
    }
  }
}
