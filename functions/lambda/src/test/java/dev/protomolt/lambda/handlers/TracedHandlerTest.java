package dev.protomolt.lambda.handlers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.lambda.EventHandler;
import dev.protomolt.tracing.Spans;
import dev.protomolt.tracing.Traceparent;
import dev.protomolt.tracing.Tracing;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TracedHandlerTest {

  private final InMemorySpanExporter exported = InMemorySpanExporter.create();
  private final Tracing tracing =
      Tracing.recordingWith(SimpleSpanProcessor.create(exported), "complete");

  @Test
  void aHopSpanIsAChildOfTheTraceparentItsStreamCarriesAndTheEventPassesUnchanged() {
    String intake =
        Spans.inSpan(
            tracing.tracer(),
            "intake",
            SpanKind.SERVER,
            Traceparent.parent(""),
            s -> Traceparent.current());
    String event =
        "{\"node\":\"parser\",\"stream\":{\"currentNodeId\":\"parser\",\"documentRef\":"
            + "{\"docId\":\"doc-7\"},\"metadata\":{\"traceparent\":\""
            + intake
            + "\"}}}";
    List<String> seen = new ArrayList<>();
    List<String> currentInside = new ArrayList<>();
    EventHandler hop =
        new HopHandler(
            "complete",
            in -> {
              seen.add(in);
              currentInside.add(Traceparent.current());
              return "{\"ok\":true}";
            });

    String reply = new TracedHandler("complete", tracing, hop).handleText(event);

    assertThat(reply).isEqualTo("{\"ok\":true}");
    assertThat(seen).containsExactly(event);
    SpanData root = byName("intake");
    SpanData span = byName("complete");
    assertThat(span.getTraceId()).isEqualTo(root.getTraceId());
    assertThat(span.getParentSpanId()).isEqualTo(root.getSpanId());
    assertThat(span.getKind()).isEqualTo(SpanKind.SERVER);
    assertThat(span.getAttributes().get(Spans.DOC_ID)).isEqualTo("doc-7");
    assertThat(span.getAttributes().get(Spans.XRAY_ANNOTATIONS))
        .containsExactly("protomolt.doc_id");
    assertThat(span.getAttributes().get(Spans.NODE_ID)).isEqualTo("parser");
    // The store's spans inside the service nest under the function's span.
    assertThat(currentInside.getFirst()).contains(span.getSpanId());
  }

  @Test
  void intakeWithoutAStreamStartsANewTraceAndAFailureIsRethrownAsItWas() {
    IllegalArgumentException refused = new IllegalArgumentException("Records: required");
    EventHandler intake =
        (in, out) -> {
          throw refused;
        };

    assertThatThrownBy(() -> new TracedHandler("intake", tracing, intake).handleText("{}"))
        .isSameAs(refused);

    SpanData span = byName("intake");
    assertThat(span.getParentSpanContext().isValid()).isFalse();
    assertThat(span.getStatus().getDescription()).isEqualTo("IllegalArgumentException");
  }

  @Test
  void tracingOffHandsTheEventStraightThrough() {
    List<String> seen = new ArrayList<>();
    EventHandler hop =
        new HopHandler(
            "prepare",
            in -> {
              seen.add(Traceparent.current());
              return "{}";
            });
    new TracedHandler("prepare", Tracing.off(), hop).handleText("{\"stream\":{}}");
    assertThat(seen).containsExactly("");
    assertThat(exported.getFinishedSpanItems()).isEmpty();
  }

  private SpanData byName(String name) {
    return exported.getFinishedSpanItems().stream()
        .filter(s -> s.getName().equals(name))
        .findFirst()
        .orElseThrow();
  }
}
