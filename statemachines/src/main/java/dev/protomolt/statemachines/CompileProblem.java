package dev.protomolt.statemachines;

/**
 * One reason a graph cannot be compiled: where it is (a node, an edge, a state or a document
 * path), which rule it breaks, and a sentence a graph author can act on.
 *
 * @param location e.g. {@code node 'parser'}, {@code edge 'e1' (parser -> chunker)},
 *     {@code state 'parser.Work'}
 * @param rule a stable rule id, e.g. {@code heartbeat-below-timeout}
 * @param message the full explanation
 */
public record CompileProblem(String location, String rule, String message) {

  @Override
  public String toString() {
    return location + ": " + message + " [" + rule + "]";
  }
}
