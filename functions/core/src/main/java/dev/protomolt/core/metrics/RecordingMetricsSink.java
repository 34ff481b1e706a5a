package dev.protomolt.core.metrics;

import dev.protomolt.names.PlatformMetric;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Keeps every emitted value in memory so a test, or the local cloud standing in for CloudWatch,
 * can read back what a function or the gateway emitted. Safe for concurrent emitters.
 */
public final class RecordingMetricsSink implements MetricsSink {

  private final String environment;
  private final List<MetricRecord> records = new CopyOnWriteArrayList<>();

  public RecordingMetricsSink(String environment) {
    this.environment = Objects.requireNonNull(environment, "environment");
  }

  @Override
  public void emit(PlatformMetric metric, double value, Map<String, String> dimensions) {
    Map<String, String> all = new HashMap<>(dimensions);
    all.put(PlatformMetric.ENVIRONMENT_DIMENSION, environment);
    records.add(new MetricRecord(metric, value, all));
  }

  /** Everything emitted so far, in order. */
  public List<MetricRecord> records() {
    return List.copyOf(records);
  }

  /** The values of {@code metric} emitted so far, in order. */
  public List<MetricRecord> records(PlatformMetric metric) {
    return records.stream().filter(r -> r.metric() == metric).toList();
  }

  /** The sum of {@code metric}'s values, as CloudWatch's Sum statistic over all of them. */
  public double sum(PlatformMetric metric) {
    return records(metric).stream().mapToDouble(MetricRecord::value).sum();
  }
}
