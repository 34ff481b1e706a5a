package dev.protomolt.core.graph.validation;

import dev.protomolt.core.cel.PipelineCelEnvironment;
import java.util.Objects;

/**
 * What rules may consult: the one CEL environment, from DESIGN up the tenancy directory, and in
 * PRODUCTION the index-plan registry.
 */
public record RuleContext(
    PipelineCelEnvironment cel, TenancyDirectory tenancy, IndexPlanRegistry plans) {

  public RuleContext {
    Objects.requireNonNull(cel, "cel");
    Objects.requireNonNull(tenancy, "tenancy");
    Objects.requireNonNull(plans, "plans");
  }

  /** A context with no declared index plans: PRODUCTION refuses every plan a sink names. */
  public RuleContext(PipelineCelEnvironment cel, TenancyDirectory tenancy) {
    this(cel, tenancy, IndexPlanRegistry.empty());
  }
}
