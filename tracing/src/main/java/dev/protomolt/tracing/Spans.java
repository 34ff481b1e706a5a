package dev.protomolt.tracing;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;

/**
 * Runs a call inside a span: the span is current while it runs (so the store's spans nest under
 * it), ends when it returns, and records a thrown exception with ERROR status before rethrowing
 * it unchanged, because the exception's class name is what Step Functions and the gateway act on.
 */
public final class Spans {

  /** The document a span is about; {@code protomolt trace <doc-id>} finds the trace by it. */
  public static final AttributeKey<String> DOC_ID = AttributeKey.stringKey("protomolt.doc_id");

  public static final AttributeKey<String> NODE_ID = AttributeKey.stringKey("protomolt.node_id");
  public static final AttributeKey<String> WORK_UNIT_ID =
      AttributeKey.stringKey("protomolt.work_unit_id");
  public static final AttributeKey<String> MODULE_ID =
      AttributeKey.stringKey("protomolt.module_id");

  /** A call that may throw, given its span to annotate. */
  @FunctionalInterface
  public interface Call<T, E extends Exception> {
    T run(Span span) throws E;
  }

  private Spans() {}

  /** {@code call} in a span named {@code name}, child of {@code parent}'s span if it has one. */
  public static <T, E extends Exception> T inSpan(
      Tracer tracer, String name, SpanKind kind, Context parent, Call<T, E> call) throws E {
    Span span = tracer.spanBuilder(name).setSpanKind(kind).setParent(parent).startSpan();
    Scope scope = span.makeCurrent();
    try {
      return call.run(span);
    } catch (RuntimeException | Error e) {
      fail(span, e);
      throw e;
    } catch (Exception e) {
      fail(span, e);
      throw e;
    } finally {
      scope.close();
      span.end();
    }
  }

  /** {@code call} in an internal span, child of the current span. */
  public static <T, E extends Exception> T inSpan(Tracer tracer, String name, Call<T, E> call)
      throws E {
    return inSpan(tracer, name, SpanKind.INTERNAL, Context.current(), call);
  }

  private static void fail(Span span, Throwable e) {
    span.recordException(e);
    span.setStatus(StatusCode.ERROR, e.getClass().getSimpleName());
  }
}
