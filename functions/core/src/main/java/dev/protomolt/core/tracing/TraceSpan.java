package dev.protomolt.core.tracing;

import java.util.Map;

/**
 * One span of a trace, as the local collector keeps it and X-Ray answers it: ids in lower-case hex, times in Unix nanoseconds,
 * attributes as text.
 *
 * @param parentSpanId empty for a trace's root span
 * @param service the {@code service.name} of the process that recorded it
 * @param status {@code UNSET}, {@code OK} or {@code ERROR}
 */
public record TraceSpan(
    String traceId,
    String spanId,
    String parentSpanId,
    String name,
    String service,
    long startNanos,
    long endNanos,
    String status,
    String statusMessage,
    Map<String, String> attributes) {

  public TraceSpan {
    attributes = Map.copyOf(attributes);
  }

  public long durationNanos() {
    return Math.max(0, endNanos - startNanos);
  }
}
