package dev.protomolt.core.graph.validation;

import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.ValidationMode;

/**
 * One validation rule. Rules never stop at the first problem: each reports everything it finds
 * into the sink, and the validator runs every rule of the mode.
 */
public interface GraphRule {

  /** The name reported on every violation, e.g. {@code NoCycles}. */
  String name();

  /** The least strict mode that runs this rule; stricter modes run it too. */
  ValidationMode minimumMode();

  void check(PipelineGraph graph, RuleContext context, ViolationSink sink);
}
