package dev.protomolt.core.graph.validation;

import dev.protomolt.core.cel.PipelineCelEnvironment;
import java.util.Objects;

/** What rules may consult: the one CEL environment and, from DESIGN up, the tenancy directory. */
public record RuleContext(PipelineCelEnvironment cel, TenancyDirectory tenancy) {

  public RuleContext {
    Objects.requireNonNull(cel, "cel");
    Objects.requireNonNull(tenancy, "tenancy");
  }
}
