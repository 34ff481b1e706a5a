package dev.protomolt.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TraceContextPropagationTest {

  private final InMemorySpanExporter exported = InMemorySpanExporter.create();

  private Tracing tracing(String service) {
    return Tracing.recordingWith(SimpleSpanProcessor.create(exported), service);
  }

  @Test
  void aSpanStartedFromACarriedTraceparentContinuesTheTraceUnderTheCarriedSpan() {
    Tracing intake = tracing("intake");
    Tracing complete = tracing("complete");
    String carried =
        Spans.inSpan(
            intake.tracer(),
            "intake",
            SpanKind.SERVER,
            Traceparent.parent(""),
            span -> Traceparent.current());

    Spans.inSpan(
        complete.tracer(),
        "complete",
        SpanKind.SERVER,
        Traceparent.parent(carried),
        span -> Spans.inSpan(complete.tracer(), "store.save", s -> "saved"));

    List<SpanData> spans = exported.getFinishedSpanItems();
    SpanData root = byName(spans, "intake");
    SpanData hop = byName(spans, "complete");
    SpanData save = byName(spans, "store.save");
    assertThat(carried).startsWith("00-" + root.getTraceId() + "-" + root.getSpanId() + "-");
    assertThat(Traceparent.traceId(carried)).isEqualTo(root.getTraceId());
    assertThat(root.getParentSpanContext().isValid()).isFalse();
    assertThat(hop.getTraceId()).isEqualTo(root.getTraceId());
    assertThat(hop.getParentSpanId()).isEqualTo(root.getSpanId());
    assertThat(save.getParentSpanId()).isEqualTo(hop.getSpanId());
    assertThat(hop.getResource().getAttributes().asMap().values()).contains("complete");
  }

  @Test
  void anEmptyOrMalformedTraceparentStartsANewTraceInsteadOfFailingTheWork() {
    Tracing t = tracing("prepare");
    for (String bad : new String[] {"", null, "not-a-traceparent", "00-zz-zz-01"}) {
      Spans.inSpan(t.tracer(), "prepare", SpanKind.SERVER, Traceparent.parent(bad), s -> 1);
      assertThat(Traceparent.traceId(bad)).isEmpty();
    }
    assertThat(exported.getFinishedSpanItems())
        .hasSize(4)
        .allSatisfy(s -> assertThat(s.getParentSpanContext().isValid()).isFalse());
  }

  @Test
  void aThrowingCallEndsItsSpanInErrorAndRethrowsTheSameException() {
    Tracing t = tracing("dispatch");
    IllegalStateException boom = new IllegalStateException("broker gone");
    assertThatThrownBy(
            () ->
                Spans.inSpan(
                    t.tracer(),
                    "dispatch",
                    s -> {
                      throw boom;
                    }))
        .isSameAs(boom);
    SpanData span = byName(exported.getFinishedSpanItems(), "dispatch");
    assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    assertThat(span.getStatus().getDescription()).isEqualTo("IllegalStateException");
    assertThat(span.getEvents()).anySatisfy(e -> assertThat(e.getName()).isEqualTo("exception"));
  }

  @Test
  void tracingOffCarriesNoTraceparent() {
    Tracing off = Tracing.fromEnvironment(Map.<String, String>of()::get, "intake");
    assertThat(off.enabled()).isFalse();
    String carried =
        Spans.inSpan(
            off.tracer(),
            "intake",
            SpanKind.SERVER,
            Traceparent.parent(""),
            s -> Traceparent.current());
    assertThat(carried).isEmpty();
  }

  @Test
  void theEndpointVariableIsABaseUrlAndABadOneIsRefusedByName() {
    assertThat(Tracing.tracesUrl("http://127.0.0.1:4318"))
        .isEqualTo("http://127.0.0.1:4318/v1/traces");
    assertThat(Tracing.tracesUrl("https://collector:4318/"))
        .isEqualTo("https://collector:4318/v1/traces");
    assertThatThrownBy(
            () ->
                Tracing.fromEnvironment(
                    Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "localhost:4318")::get, "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("OTEL_EXPORTER_OTLP_ENDPOINT")
        .hasMessageContaining("http:// or https://");
    Tracing on =
        Tracing.fromEnvironment(
            Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1")::get, "x");
    assertThat(on.enabled()).isTrue();
    on.close();
  }

  private static SpanData byName(List<SpanData> spans, String name) {
    return spans.stream().filter(s -> s.getName().equals(name)).findFirst().orElseThrow();
  }
}
