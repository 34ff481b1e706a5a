package dev.protomolt.core.routing;

/** What a node's filter conditions decided before its module runs. */
public sealed interface FilterOutcome {

  /** Every condition held: run the module. */
  record Run() implements FilterOutcome {}

  /** A SKIP condition failed: bypass the module and route the document on unchanged. */
  record Skip(int conditionIndex, String description) implements FilterOutcome {}

  /**
   * A DROP condition failed (DROP is the default action): a terminal, successful disposition,
   * recorded, with no dead letter.
   */
  record Drop(int conditionIndex, String description) implements FilterOutcome {}
}
