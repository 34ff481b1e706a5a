package dev.protomolt.core.graph.validation;

import dev.protomolt.proto.config.v1.IndexPlan;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The index plans sink modules have declared, for PRODUCTION-mode producibility checks. Port: the
 * adapter reads the registry sink modules declare into. DRAFT and DESIGN never call it.
 */
public interface IndexPlanRegistry {

  /** The declared plan with this id, or empty when no module declared it. */
  Optional<IndexPlan> plan(String planId);

  /** A registry nobody declared into: every plan is unknown. */
  static IndexPlanRegistry empty() {
    return planId -> Optional.empty();
  }

  /** A fixed registry of {@code plans}, keyed by plan id (tests and offline validation). */
  static IndexPlanRegistry of(List<IndexPlan> plans) {
    Map<String, IndexPlan> byId =
        plans.stream()
            .collect(Collectors.toUnmodifiableMap(IndexPlan::getPlanId, Function.identity()));
    return planId -> Optional.ofNullable(byId.get(planId));
  }
}
