package dev.protomolt.core.cel;

/** What an expression must produce: a predicate must be bool; a value may be anything. */
public enum ExpressionShape {
  /** Edge conditions, node filters and mapping filters. */
  PREDICATE,
  /** Mapping expressions whose value is written into the document. */
  VALUE
}
