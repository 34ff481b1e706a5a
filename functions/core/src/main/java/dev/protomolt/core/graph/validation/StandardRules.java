package dev.protomolt.core.graph.validation;

import java.util.List;

/** The rules a deploy runs, in the order their violations are reported. */
public final class StandardRules {

  private StandardRules() {}

  public static List<GraphRule> all() {
    return List.of(
        new RequiredIdsRule(),
        new DuplicateIdsRule(),
        new NodeTypeRule(),
        new EdgeEndpointsRule(),
        new EdgeSettingsRule(),
        new MemoizationRule(),
        new NoCyclesRule(),
        new IntakePresenceRule(),
        new DuplicateIntakeDatasourceRule(),
        new OrphanNodeRule(),
        new CelExpressionRule(),
        new MappingRule(),
        new MemoryFanOutRule(),
        new TenancyRule(),
        new SinkRequiresPlansRule(),
        new IndexPlanProducibleRule());
  }
}
