package dev.protomolt.core.doclog;

/**
 * Where a sealed log's original text is kept as one object (decision 1674): the UTF-8 bytes of the
 * whole text, next to their SHA-256, so the original can be fetched and checked without
 * reassembling it from parts. The S3 adapter lives in {@code functions/repository}.
 */
public interface LogOriginals {

  /** Keeps nothing: a log sealed through it records an empty location. */
  LogOriginals NONE =
      new LogOriginals() {
        @Override
        public String put(LogKey key, byte[] utf8, String sha256) {
          return "";
        }

        @Override
        public byte[] get(String location) {
          throw new IllegalStateException(
              "original: no original was stored for this log (its gateway kept none when it was"
                  + " sealed)");
        }
      };

  /**
   * Stores the original of {@code key} and returns where it lives (a URI such as {@code
   * s3://bucket/key}), or an empty string if this store keeps nothing. Storing the same bytes
   * again is harmless, so a retried seal converges.
   */
  String put(LogKey key, byte[] utf8, String sha256);

  /** The bytes stored at {@code location}, as returned by {@link #put}. */
  byte[] get(String location);
}
