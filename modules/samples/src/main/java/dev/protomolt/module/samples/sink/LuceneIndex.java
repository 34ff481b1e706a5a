package dev.protomolt.module.samples.sink;

import dev.protomolt.module.sdk.DocumentRejectedException;
import dev.protomolt.proto.data.v1.ChunkEmbedding;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.SemanticChunk;
import dev.protomolt.proto.data.v1.SemanticProcessingResult;
import dev.protomolt.proto.module.v1.RejectReason;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;

/**
 * A local Lucene index of documents (title and body as text) and their embedded chunks (text plus
 * a {@link KnnFloatVectorField}). Writing a document first deletes everything indexed under its
 * doc_id, so re-indexing a redelivered document converges instead of duplicating it.
 */
public final class LuceneIndex implements AutoCloseable {

  /** What one document contributed, for the receipt. */
  public record Indexed(int chunkDocuments, List<VectorSet> vectorSets) {}

  /** One chunk set whose vectors were indexed. */
  public record VectorSet(SemanticProcessingResult source, int dimensions, int vectors) {}

  private final Path path;
  private final Directory directory;
  private final IndexWriter writer;

  private LuceneIndex(Path path) throws IOException {
    this.path = path;
    this.directory = FSDirectory.open(path);
    this.writer = new IndexWriter(directory, new IndexWriterConfig(new StandardAnalyzer()));
    // An empty commit makes a fresh index searchable before its first document.
    writer.commit();
  }

  public static LuceneIndex open(Path path) throws IOException {
    return new LuceneIndex(path);
  }

  public Path path() {
    return path;
  }

  /** A searcher over what has been committed so far. */
  public IndexSearch search() {
    return new IndexSearch(directory);
  }

  /**
   * Replaces the document and its chunks in the index and commits, so a receipt emitted after this
   * returns describes durable state.
   */
  public Indexed index(PipeDoc document) throws IOException, DocumentRejectedException {
    List<Document> documents = new ArrayList<>();
    Document whole = new Document();
    whole.add(new StringField(IndexFields.DOC_ID, document.getDocId(), Field.Store.YES));
    whole.add(new StringField(IndexFields.KIND, IndexFields.KIND_DOCUMENT, Field.Store.YES));
    whole.add(
        new TextField(IndexFields.TITLE, document.getSearchMetadata().getTitle(), Field.Store.YES));
    whole.add(
        new TextField(IndexFields.BODY, document.getSearchMetadata().getBody(), Field.Store.YES));
    whole.add(
        new StringField(
            IndexFields.ACCOUNT_ID, document.getOwnership().getAccountId(), Field.Store.YES));
    documents.add(whole);

    List<VectorSet> vectorSets = new ArrayList<>();
    List<SemanticProcessingResult> sets = document.getSearchMetadata().getSemanticResultsList();
    for (int s = 0; s < sets.size(); s++) {
      SemanticProcessingResult set = sets.get(s);
      int dimensions = -1;
      int vectors = 0;
      for (int c = 0; c < set.getChunksCount(); c++) {
        SemanticChunk chunk = set.getChunks(c);
        ChunkEmbedding info = chunk.getEmbeddingInfo();
        if (info.getVectorCount() == 0) {
          continue;
        }
        String where =
            "search_metadata.semantic_results[" + s + "].chunks[" + c + "].embedding_info.vector";
        if (dimensions < 0) {
          dimensions = info.getVectorCount();
        } else if (dimensions != info.getVectorCount()) {
          throw invalid(
              where
                  + " has "
                  + info.getVectorCount()
                  + " dimensions but chunk set \""
                  + set.getResultId()
                  + "\" started with "
                  + dimensions);
        }
        if (dimensions > 1024) {
          throw invalid(
              where + " has " + dimensions + " dimensions; this index takes at most 1024");
        }
        float[] vector = new float[dimensions];
        double norm = 0;
        for (int i = 0; i < dimensions; i++) {
          vector[i] = info.getVector(i);
          if (!Float.isFinite(vector[i])) {
            throw invalid(where + "[" + i + "] is " + vector[i] + "; vectors must be finite");
          }
          norm += vector[i] * vector[i];
        }
        Document chunkDocument = new Document();
        chunkDocument.add(
            new StringField(IndexFields.DOC_ID, document.getDocId(), Field.Store.YES));
        chunkDocument.add(
            new StringField(IndexFields.KIND, IndexFields.KIND_CHUNK, Field.Store.YES));
        chunkDocument.add(
            new StringField(IndexFields.CHUNK_ID, chunk.getChunkId(), Field.Store.YES));
        chunkDocument.add(
            new StringField(IndexFields.RESULT_ID, set.getResultId(), Field.Store.YES));
        chunkDocument.add(
            new TextField(IndexFields.CHUNK_TEXT, info.getTextContent(), Field.Store.YES));
        // A zero vector has no direction: cosine similarity is undefined, so only its text goes in.
        if (norm > 0) {
          chunkDocument.add(
              new KnnFloatVectorField(
                  IndexFields.vectorField(dimensions), vector, VectorSimilarityFunction.COSINE));
          vectors++;
        }
        documents.add(chunkDocument);
      }
      if (dimensions > 0) {
        vectorSets.add(new VectorSet(set, dimensions, vectors));
      }
    }
    writer.updateDocuments(new Term(IndexFields.DOC_ID, document.getDocId()), documents);
    writer.commit();
    return new Indexed(documents.size() - 1, vectorSets);
  }

  private static DocumentRejectedException invalid(String detail) {
    return new DocumentRejectedException(RejectReason.REJECT_REASON_INVALID_INPUT, detail);
  }

  @Override
  public void close() throws IOException {
    writer.close();
    directory.close();
  }
}
