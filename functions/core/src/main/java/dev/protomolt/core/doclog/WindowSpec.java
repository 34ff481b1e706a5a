package dev.protomolt.core.doclog;

/**
 * How a document's text is cut: windows of {@code size} code points, each starting {@code step()}
 * code points after the previous one, so consecutive windows share {@code overlap} code points.
 */
public record WindowSpec(int size, int overlap) {

  /** The content index's windows: 1000 code points with 150 shared between neighbours. */
  public static final WindowSpec DEFAULT = new WindowSpec(1000, 150);

  public WindowSpec {
    if (size <= 0) {
      throw new IllegalArgumentException("size: must be greater than 0 (got " + size + ")");
    }
    if (overlap < 0) {
      throw new IllegalArgumentException("overlap: must not be negative (got " + overlap + ")");
    }
    if (overlap >= size) {
      throw new IllegalArgumentException(
          "overlap: must be less than size " + size + " (got " + overlap + ")");
    }
  }

  /** How far each window starts after the previous one; at least 1, so cutting always advances. */
  public int step() {
    return size - overlap;
  }
}
