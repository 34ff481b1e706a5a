package dev.protomolt.core.graph.validation;

import dev.protomolt.core.cel.CelProblem;
import dev.protomolt.core.cel.ExpressionSite;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.ValidationMode;

/**
 * Every expression compiles in the same environment the runtime uses; each problem is reported
 * with the field holding the expression and the position inside it.
 */
final class CelExpressionRule implements GraphRule {

  @Override
  public String name() {
    return "CelExpression";
  }

  @Override
  public ValidationMode minimumMode() {
    return ValidationMode.VALIDATION_MODE_DRAFT;
  }

  @Override
  public void check(PipelineGraph graph, RuleContext context, ViolationSink sink) {
    for (ExpressionSite site : ExpressionSite.of(graph)) {
      for (CelProblem problem : context.cel().check(site.expression(), site.shape())) {
        String owner =
            site.edgeId().isEmpty()
                ? "node '" + site.nodeId() + "'"
                : "edge '" + site.edgeId() + "'";
        sink.at(
            site.nodeId(),
            site.edgeId(),
            site.field(),
            problem.position(),
            owner
                + " "
                + site.field()
                + " '"
                + site.expression()
                + "' does not compile at position "
                + problem.position()
                + ": "
                + problem.message());
      }
    }
  }
}
