package dev.protomolt.module.samples.embedder;

import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.Locale;

/**
 * A deterministic text vector with no model: the feature-hashing ("hashing trick") vector of the
 * text's character n-grams. The text is NFKC-normalised, lower-cased and whitespace-collapsed, and
 * padded with one space at each end so word starts and ends form their own grams. Every n-gram of
 * {@value #MIN_N} to {@value #MAX_N} code points is hashed with 64-bit FNV-1a; the hash picks a
 * dimension and a sign (+1 or -1), and the counts are L2-normalised. Texts that share many
 * character sequences point the same way, so cosine similarity measures spelling overlap: useful
 * for a demo search, not semantic similarity.
 */
public final class HashedNgramEmbedder {

  public static final int MIN_N = 3;
  public static final int MAX_N = 5;

  /** Lucene's default codec indexes float vectors of at most 1024 dimensions. */
  public static final int MAX_DIMENSIONS = 1024;

  private static final long FNV_OFFSET = 0xcbf29ce484222325L;
  private static final long FNV_PRIME = 0x100000001b3L;

  private final int dimensions;

  public HashedNgramEmbedder(int dimensions) {
    if (dimensions < 8 || dimensions > MAX_DIMENSIONS) {
      throw new IllegalArgumentException(
          "dimensions must be between 8 and " + MAX_DIMENSIONS + ", got " + dimensions);
    }
    this.dimensions = dimensions;
  }

  public int dimensions() {
    return dimensions;
  }

  /** Names exactly what produced a vector, so vectors of different configs are never mixed. */
  public String configId() {
    return "hashed-char-ngram-" + MIN_N + "-" + MAX_N + "-fnv1a-d" + dimensions + "-v1";
  }

  /** The unit-length vector of {@code text}; all zeros when the text has no characters. */
  public float[] embed(String text) {
    String normalized =
        " "
            + Normalizer.normalize(text, Normalizer.Form.NFKC)
                .toLowerCase(Locale.ROOT)
                .replaceAll("\\s+", " ")
                .strip()
            + " ";
    int[] codePoints = normalized.codePoints().toArray();
    double[] sums = new double[dimensions];
    if (codePoints.length > 2) {
      for (int n = MIN_N; n <= MAX_N; n++) {
        for (int i = 0; i + n <= codePoints.length; i++) {
          long hash = fnv1a(codePoints, i, n);
          int index = (int) Long.remainderUnsigned(hash, dimensions);
          // The sign comes from bits the index does not use, so collisions tend to cancel out.
          sums[index] += ((hash >>> 40) & 1) == 0 ? 1 : -1;
        }
      }
    }
    double norm = 0;
    for (double value : sums) {
      norm += value * value;
    }
    norm = Math.sqrt(norm);
    float[] vector = new float[dimensions];
    if (norm > 0) {
      for (int i = 0; i < dimensions; i++) {
        vector[i] = (float) (sums[i] / norm);
      }
    }
    return vector;
  }

  private static long fnv1a(int[] codePoints, int from, int length) {
    long hash = FNV_OFFSET;
    byte[] bytes = new String(codePoints, from, length).getBytes(StandardCharsets.UTF_8);
    for (byte b : bytes) {
      hash ^= b & 0xff;
      hash *= FNV_PRIME;
    }
    return hash;
  }
}
