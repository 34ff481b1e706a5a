package dev.protomolt.tracing;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.util.List;

/**
 * Runs a call inside a span: the span is current while it runs (so the store's spans nest under
 * it), ends when it returns, and records a thrown exception with ERROR status before rethrowing
 * it unchanged, because the exception's class name is what Step Functions and the gateway act on.
 */
public final class Spans {

  /** The document a span is about; {@code protomolt trace <doc-id>} finds the trace by it. */
  public static final AttributeKey<String> DOC_ID = AttributeKey.stringKey("protomolt.doc_id");

  /**
   * The attributes X-Ray indexes as annotations. Both the collector's X-Ray exporter and the local
   * collector keep every other attribute as unsearchable metadata, so the console's lookup by
   * document id finds only spans that list {@link #DOC_ID} here (decision 1830).
   */
  public static final AttributeKey<List<String>> XRAY_ANNOTATIONS =
      AttributeKey.stringArrayKey("aws.xray.annotations");

  private static final List<String> INDEXED = List.of(DOC_ID.getKey());

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

  /** Names {@code docId} as the span's document, indexed so it can be found by it in X-Ray. */
  public static void aboutDocument(Span span, String docId) {
    span.setAttribute(DOC_ID, docId);
    span.setAttribute(XRAY_ANNOTATIONS, INDEXED);
  }

  /** {@link #aboutDocument(Span, String)} for a span not started yet. */
  public static SpanBuilder aboutDocument(SpanBuilder span, String docId) {
    return span.setAttribute(DOC_ID, docId).setAttribute(XRAY_ANNOTATIONS, INDEXED);
  }

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
