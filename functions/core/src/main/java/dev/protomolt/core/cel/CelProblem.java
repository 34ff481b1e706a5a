package dev.protomolt.core.cel;

/**
 * One compile problem in one expression.
 *
 * @param position 0-based character offset in the expression
 * @param line 1-based line
 * @param column 0-based column within the line
 * @param message what CEL said
 */
public record CelProblem(int position, int line, int column, String message) {

  @Override
  public String toString() {
    return "at position " + position + ": " + message;
  }
}
