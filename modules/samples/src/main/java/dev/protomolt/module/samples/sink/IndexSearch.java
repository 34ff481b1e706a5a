package dev.protomolt.module.samples.sink;

import dev.protomolt.module.samples.embedder.HashedNgramEmbedder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;

/**
 * Reads the sample index: a text query over titles and bodies (BM25) and a vector query over chunk
 * vectors (k nearest neighbours by cosine). Each call sees the latest commit, so a separate process
 * (the {@code protomolt search} command) can search while the sink writes.
 */
public final class IndexSearch {

  private static final int SNIPPET_CHARS = 160;

  private final Directory directory;

  IndexSearch(Directory directory) {
    this.directory = directory;
  }

  /** Opens an index folder read-only; the caller closes nothing, each search opens and closes. */
  public static IndexSearch at(Path indexFolder) throws IOException {
    return new IndexSearch(FSDirectory.open(indexFolder));
  }

  /** Documents whose title or body contain the query's words, best first. */
  public List<SearchHit> text(String query, int limit) throws IOException {
    List<String> terms = analyze(query);
    if (terms.isEmpty()) {
      return List.of();
    }
    BooleanQuery.Builder words = new BooleanQuery.Builder();
    for (String term : terms) {
      words.add(
          new BoostQuery(new TermQuery(new Term(IndexFields.TITLE, term)), 2f),
          BooleanClause.Occur.SHOULD);
      words.add(new TermQuery(new Term(IndexFields.BODY, term)), BooleanClause.Occur.SHOULD);
    }
    Query documentsOnly =
        new BooleanQuery.Builder()
            .add(words.build(), BooleanClause.Occur.MUST)
            .add(
                new TermQuery(new Term(IndexFields.KIND, IndexFields.KIND_DOCUMENT)),
                BooleanClause.Occur.FILTER)
            .build();
    try (DirectoryReader reader = DirectoryReader.open(directory)) {
      IndexSearcher searcher = new IndexSearcher(reader);
      TopDocs top = searcher.search(documentsOnly, limit);
      StoredFields stored = searcher.storedFields();
      List<SearchHit> hits = new ArrayList<>();
      for (ScoreDoc scoreDoc : top.scoreDocs) {
        Document document = stored.document(scoreDoc.doc);
        hits.add(
            new SearchHit(
                document.get(IndexFields.DOC_ID),
                document.get(IndexFields.TITLE),
                "",
                scoreDoc.score,
                snippet(document.get(IndexFields.BODY), terms)));
      }
      return hits;
    }
  }

  /** Chunks whose vectors are nearest to {@code vector}, best first. */
  public List<SearchHit> vector(float[] vector, int limit) throws IOException {
    try (DirectoryReader reader = DirectoryReader.open(directory)) {
      String field = IndexFields.vectorField(vector.length);
      if (reader.leaves().stream()
          .noneMatch(leaf -> leaf.reader().getFieldInfos().fieldInfo(field) != null)) {
        return List.of();
      }
      IndexSearcher searcher = new IndexSearcher(reader);
      TopDocs top =
          searcher.search(KnnFloatVectorField.newVectorQuery(field, vector, limit), limit);
      StoredFields stored = searcher.storedFields();
      List<SearchHit> hits = new ArrayList<>();
      for (ScoreDoc scoreDoc : top.scoreDocs) {
        Document chunk = stored.document(scoreDoc.doc);
        String text = chunk.get(IndexFields.CHUNK_TEXT);
        hits.add(
            new SearchHit(
                chunk.get(IndexFields.DOC_ID),
                titleOf(searcher, chunk.get(IndexFields.DOC_ID)),
                chunk.get(IndexFields.CHUNK_ID),
                scoreDoc.score,
                text.length() <= SNIPPET_CHARS ? text : text.substring(0, SNIPPET_CHARS) + "…"));
      }
      return hits;
    }
  }

  /** What {@code protomolt search TEXT} runs: the text's own hashed vector against chunk vectors. */
  public List<SearchHit> vector(String text, HashedNgramEmbedder embedder, int limit)
      throws IOException {
    return vector(embedder.embed(text), limit);
  }

  private static String titleOf(IndexSearcher searcher, String docId) {
    try {
      Query query =
          new BooleanQuery.Builder()
              .add(new TermQuery(new Term(IndexFields.DOC_ID, docId)), BooleanClause.Occur.FILTER)
              .add(
                  new TermQuery(new Term(IndexFields.KIND, IndexFields.KIND_DOCUMENT)),
                  BooleanClause.Occur.FILTER)
              .build();
      TopDocs top = searcher.search(query, 1);
      return top.scoreDocs.length == 0
          ? ""
          : searcher.storedFields().document(top.scoreDocs[0].doc).get(IndexFields.TITLE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<String> analyze(String query) throws IOException {
    Set<String> terms = new LinkedHashSet<>();
    try (Analyzer analyzer = new StandardAnalyzer();
        TokenStream tokens = analyzer.tokenStream(IndexFields.BODY, query)) {
      CharTermAttribute term = tokens.addAttribute(CharTermAttribute.class);
      tokens.reset();
      while (tokens.incrementToken()) {
        terms.add(term.toString());
      }
      tokens.end();
    }
    return List.copyOf(terms);
  }

  /** Text around the first query word found in the body, or the body's start. */
  private static String snippet(String body, List<String> terms) {
    String lower = body.toLowerCase(Locale.ROOT);
    int at = -1;
    for (String term : terms) {
      int found = lower.indexOf(term);
      if (found >= 0 && (at < 0 || found < at)) {
        at = found;
      }
    }
    int start = Math.max(0, at - SNIPPET_CHARS / 3);
    int end = Math.min(body.length(), start + SNIPPET_CHARS);
    String text = body.substring(start, end).replaceAll("\\s+", " ").strip();
    return (start > 0 ? "…" : "") + text + (end < body.length() ? "…" : "");
  }
}
