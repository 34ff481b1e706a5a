package dev.protomolt.core.metrics;

import dev.protomolt.names.PlatformMetric;
import java.io.PrintStream;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Writes each value as one CloudWatch embedded-metric-format line: a JSON object whose {@code _aws}
 * block names namespace {@value PlatformMetric#NAMESPACE}, the dimension sets and the metric, with
 * the dimension values and the value as top-level members. Lambda's log stream and the gateway's
 * awslogs driver ship stdout to CloudWatch Logs, which turns each line into a metric data point, so
 * neither needs PutMetricData. The line is written in one {@code println}, so lines never
 * interleave.
 */
public final class EmbeddedMetricFormatSink implements MetricsSink {

  private final PrintStream out;
  private final String environment;
  private final Clock clock;

  public EmbeddedMetricFormatSink(PrintStream out, String environment, Clock clock) {
    this.out = Objects.requireNonNull(out, "out");
    this.environment = Objects.requireNonNull(environment, "environment");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** The sink a deployed process uses: stdout, the system clock. */
  public static EmbeddedMetricFormatSink stdout(String environment) {
    return new EmbeddedMetricFormatSink(System.out, environment, Clock.systemUTC());
  }

  @Override
  public void emit(PlatformMetric metric, double value, Map<String, String> dimensions) {
    out.println(line(metric, value, dimensions, clock.millis()));
  }

  /** The EMF line for one value; public so a reader of the lines can be tested against it. */
  public String line(
      PlatformMetric metric, double value, Map<String, String> dimensions, long epochMillis) {
    if (!Double.isFinite(value)) {
      throw new IllegalArgumentException(
          metric.metricName() + ": an EMF value must be a finite number, got " + value);
    }
    Map<String, String> values = new TreeMap<>(dimensions);
    values.put(PlatformMetric.ENVIRONMENT_DIMENSION, environment);
    // Environment alone is the series the stack's alarms and scaling read; with the extra
    // dimensions it is the per-module (or per-whatever) breakdown.
    List<String> sets = new ArrayList<>();
    sets.add("[" + quote(PlatformMetric.ENVIRONMENT_DIMENSION) + "]");
    if (!dimensions.isEmpty()) {
      List<String> all = new ArrayList<>();
      all.add(quote(PlatformMetric.ENVIRONMENT_DIMENSION));
      new TreeMap<>(dimensions).keySet().forEach(k -> all.add(quote(k)));
      sets.add("[" + String.join(",", all) + "]");
    }
    StringBuilder line = new StringBuilder(256);
    line.append("{\"_aws\":{\"Timestamp\":")
        .append(epochMillis)
        .append(",\"CloudWatchMetrics\":[{\"Namespace\":")
        .append(quote(PlatformMetric.NAMESPACE))
        .append(",\"Dimensions\":[")
        .append(String.join(",", sets))
        .append("],\"Metrics\":[{\"Name\":")
        .append(quote(metric.metricName()))
        .append(",\"Unit\":")
        .append(quote(metric.unit()))
        .append("}]}]}");
    values.forEach((k, v) -> line.append(',').append(quote(k)).append(':').append(quote(v)));
    line.append(',').append(quote(metric.metricName())).append(':');
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      line.append((long) value);
    } else {
      line.append(value);
    }
    return line.append('}').toString();
  }

  private static String quote(String s) {
    StringBuilder q = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> q.append("\\\"");
        case '\\' -> q.append("\\\\");
        default -> {
          if (c < 0x20) {
            q.append(String.format("\\u%04x", (int) c));
          } else {
            q.append(c);
          }
        }
      }
    }
    return q.append('"').toString();
  }
}
