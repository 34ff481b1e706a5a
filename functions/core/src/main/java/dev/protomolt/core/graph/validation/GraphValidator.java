package dev.protomolt.core.graph.validation;

import dev.protomolt.core.cel.PipelineCelEnvironment;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.Severity;
import dev.protomolt.proto.config.v1.ValidationMode;
import dev.protomolt.proto.config.v1.ValidationResult;
import java.util.List;

/**
 * Runs every rule of a mode and returns all violations together. DRAFT runs the structural rules,
 * DESIGN adds tenancy, PRODUCTION adds sink index plans and their producibility. A result is valid when it holds no
 * ERROR-severity violation; warnings are reported but do not block.
 */
public final class GraphValidator {

  private final List<GraphRule> rules;
  private final RuleContext context;

  public GraphValidator(List<GraphRule> rules, RuleContext context) {
    this.rules = List.copyOf(rules);
    this.context = context;
  }

  /**
   * The standard rule set, with the shared CEL environment and a tenancy directory, and no declared
   * index plans: PRODUCTION refuses every plan a sink names.
   */
  public static GraphValidator standard(PipelineCelEnvironment cel, TenancyDirectory tenancy) {
    return new GraphValidator(StandardRules.all(), new RuleContext(cel, tenancy));
  }

  /** The standard rule set, with the index plans sink modules declared for PRODUCTION. */
  public static GraphValidator standard(
      PipelineCelEnvironment cel, TenancyDirectory tenancy, IndexPlanRegistry plans) {
    return new GraphValidator(StandardRules.all(), new RuleContext(cel, tenancy, plans));
  }

  public ValidationResult validate(PipelineGraph graph, ValidationMode mode) {
    if (mode == ValidationMode.VALIDATION_MODE_UNSPECIFIED || mode == ValidationMode.UNRECOGNIZED) {
      throw new IllegalArgumentException("mode must be DRAFT, DESIGN or PRODUCTION, was " + mode);
    }
    ViolationSink sink = new ViolationSink();
    for (GraphRule rule : rules) {
      if (rule.minimumMode().getNumber() <= mode.getNumber()) {
        sink.beginRule(rule.name());
        rule.check(graph, context, sink);
      }
    }
    var violations = sink.violations();
    boolean valid = violations.stream().noneMatch(v -> v.getSeverity() == Severity.SEVERITY_ERROR);
    return ValidationResult.newBuilder()
        .setValid(valid)
        .setMode(mode)
        .addAllViolations(violations)
        .build();
  }
}
