package dev.protomolt.module.samples.sink;

/** Field names of the sample index, shared by the writer and the searcher. */
final class IndexFields {

  static final String DOC_ID = "doc_id";
  static final String KIND = "kind";
  static final String KIND_DOCUMENT = "document";
  static final String KIND_CHUNK = "chunk";
  static final String TITLE = "title";
  static final String BODY = "body";
  static final String ACCOUNT_ID = "account_id";
  static final String CHUNK_ID = "chunk_id";
  static final String RESULT_ID = "result_id";
  static final String CHUNK_TEXT = "chunk_text";

  /** Vectors of different sizes live in different fields: Lucene fixes a field's dimension. */
  static String vectorField(int dimensions) {
    return "vector_" + dimensions;
  }

  private IndexFields() {}
}
