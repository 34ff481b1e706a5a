package dev.protomolt.module.samples.sink;

/**
 * One search result.
 *
 * @param docId the document
 * @param title its title (blank for chunk hits of untitled documents)
 * @param chunkId the matching chunk for vector hits, blank for text hits
 * @param score Lucene's score (BM25 for text, similarity for vectors)
 * @param snippet a short piece of matching text
 */
public record SearchHit(String docId, String title, String chunkId, float score, String snippet) {}
