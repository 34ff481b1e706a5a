package dev.protomolt.bench.throughput;

import com.google.protobuf.ByteString;
import dev.protomolt.module.samples.chunker.DocumentChunker;
import dev.protomolt.module.samples.embedder.DocumentEmbedder;
import dev.protomolt.module.samples.parser.DocumentParser;
import dev.protomolt.module.samples.sink.DocumentIndexSink;
import dev.protomolt.module.samples.sink.IndexSinkModule;
import dev.protomolt.module.samples.sink.LuceneIndex;
import dev.protomolt.module.samples.sink.UlidGenerator;
import dev.protomolt.module.sdk.DocumentProcessor;
import dev.protomolt.module.sdk.ModuleOutcome;
import dev.protomolt.module.sdk.WorkContext;
import dev.protomolt.proto.data.v1.Blob;
import dev.protomolt.proto.data.v1.BlobBag;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.StreamMetadata;
import dev.protomolt.proto.module.v1.WorkUnit;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * The floor: the four sample modules' own work, each document handed from parser to chunker to
 * embedder to the Lucene sink in this thread, with no platform between them. The processors are
 * the ones the local platform runs, built the same way.
 */
final class InProcessModules implements AutoCloseable {

  private final LuceneIndex index;
  private final List<DocumentProcessor> chain;

  InProcessModules(Path indexDir) throws Exception {
    Clock clock = Clock.systemUTC();
    index = LuceneIndex.open(indexDir);
    chain =
        List.of(
            new DocumentParser(clock),
            new DocumentChunker(),
            new DocumentEmbedder(),
            new DocumentIndexSink(
                index,
                receipt -> {},
                IndexSinkModule.INDEX_NAME,
                clock,
                new UlidGenerator(clock, new Random(7))));
  }

  /** Runs every document through the chain; returns how many ended how (outcome of the last hop). */
  Map<String, Integer> run(List<CorpusDocument> documents, String prefix) throws Exception {
    Map<String, Integer> outcomes = new TreeMap<>();
    for (CorpusDocument document : documents) {
      PipeDoc doc =
          PipeDoc.newBuilder()
              .setDocId(prefix + document.name())
              .setBlobBag(
                  BlobBag.newBuilder()
                      .setBlob(
                          Blob.newBuilder()
                              .setData(ByteString.copyFrom(document.bytes()))
                              .setMimeType(document.mimeType())
                              .setFilename(document.fileName())))
              .build();
      String outcome = "UPDATED";
      for (DocumentProcessor module : chain) {
        ModuleOutcome result = module.process(WorkContext.forUnit(unit(doc)));
        if (result instanceof ModuleOutcome.Updated updated) {
          doc = updated.document();
        } else {
          outcome = result.getClass().getSimpleName().toUpperCase(java.util.Locale.ROOT);
          break;
        }
      }
      outcomes.merge(outcome, 1, Integer::sum);
    }
    return outcomes;
  }

  private static WorkUnit unit(PipeDoc doc) {
    return WorkUnit.newBuilder()
        .setWorkUnitId(doc.getDocId())
        .setStream(
            PipeStream.newBuilder()
                .setDocument(doc)
                .setMetadata(StreamMetadata.newBuilder().setAccountId("bench")))
        .setGraphId("in-process")
        .setGraphVersion(1)
        .setNodeId("node")
        .setStoredNodeId("node")
        .setBlobContentIncluded(true)
        .addIndexPlanIds(IndexSinkModule.INDEX_NAME)
        .build();
  }

  @Override
  public void close() throws java.io.IOException {
    index.close();
  }
}
