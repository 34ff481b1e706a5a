package dev.protomolt.core.metrics;

import dev.protomolt.names.PlatformMetric;
import java.util.Map;

/** One emitted value with every dimension it carries, the environment included. */
public record MetricRecord(PlatformMetric metric, double value, Map<String, String> dimensions) {
  public MetricRecord {
    dimensions = Map.copyOf(dimensions);
  }
}
