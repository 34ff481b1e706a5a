package dev.protomolt.core.metrics;

import dev.protomolt.names.PlatformMetric;
import java.util.Map;

/**
 * Where a process writes the metrics the stack's scaling and alarms read. In AWS that is a
 * CloudWatch embedded-metric-format line on stdout ({@link EmbeddedMetricFormatSink}); a test or
 * the local cloud installs a {@link RecordingMetricsSink} and reads the values back. A sink knows
 * its environment and adds the {@link PlatformMetric#ENVIRONMENT_DIMENSION} dimension itself.
 */
public interface MetricsSink {

  /**
   * @param dimensions extra dimensions beyond the environment (the backlog's module service); the
   *     metric is also emitted without them, so the environment-only series the stack reads exists
   */
  void emit(PlatformMetric metric, double value, Map<String, String> dimensions);

  default void emit(PlatformMetric metric, double value) {
    emit(metric, value, Map.of());
  }
}
