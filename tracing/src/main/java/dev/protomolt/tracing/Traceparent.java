package dev.protomolt.tracing;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.util.HashMap;
import java.util.Map;

/**
 * A span context as the W3C {@code traceparent} header spells it ({@code
 * 00-<32 hex trace id>-<16 hex span id>-<2 hex flags>}): the form the stream ({@code
 * StreamMetadata.traceparent}) and the work unit ({@code WorkUnit.traceparent}) carry it in, so a
 * document's trace survives Step Functions state, Kafka records and the module's gRPC stream.
 */
public final class Traceparent {

  private static final String HEADER = "traceparent";

  private static final TextMapGetter<Map<String, String>> GETTER =
      new TextMapGetter<>() {
        // Still abstract in the API though deprecated; the W3C propagator never calls it.
        @SuppressWarnings("deprecation")
        @Override
        public Iterable<String> keys(Map<String, String> carrier) {
          return carrier.keySet();
        }

        @Override
        public String get(Map<String, String> carrier, String key) {
          return carrier == null ? null : carrier.get(key);
        }
      };

  private Traceparent() {}

  /** The traceparent of {@code context}'s span; empty when it has no valid span (tracing off). */
  public static String of(Context context) {
    Map<String, String> carrier = new HashMap<>();
    W3CTraceContextPropagator.getInstance().inject(context, carrier, Map::put);
    return carrier.getOrDefault(HEADER, "");
  }

  /** The traceparent of the current span, or empty. */
  public static String current() {
    return of(Context.current());
  }

  /**
   * The root context with {@code traceparent}'s span as the remote parent; the root context alone
   * when it is empty or malformed, so a span then starts a trace of its own rather than failing
   * the work it describes.
   */
  public static Context parent(String traceparent) {
    if (traceparent == null || traceparent.isEmpty()) {
      return Context.root();
    }
    return W3CTraceContextPropagator.getInstance()
        .extract(Context.root(), Map.of(HEADER, traceparent), GETTER);
  }

  /** The trace id (32 hex) of {@code traceparent}; empty when it names none. */
  public static String traceId(String traceparent) {
    SpanContext span = Span.fromContext(parent(traceparent)).getSpanContext();
    return span.isValid() ? span.getTraceId() : "";
  }
}
