package dev.protomolt.lambda.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import dev.protomolt.lambda.EventHandler;
import dev.protomolt.lambda.EventJson;
import dev.protomolt.tracing.Spans;
import dev.protomolt.tracing.Traceparent;
import dev.protomolt.tracing.Tracing;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Objects;

/**
 * One span per invocation of a function of the document's walk (decision 1793). {@code intake}
 * starts the document's trace (its span is current while admission stamps the stream's {@code
 * traceparent}); prepare, dispatch, complete and dlq parent their span on the {@code
 * stream.metadata.traceparent} of their task input, so every hop of one document lands in one
 * trace whichever container runs it. The event bytes reach the wrapped handler unchanged, and a
 * failure is rethrown unchanged: the span only watches.
 *
 * <p>Spans are flushed before the invocation returns: Lambda freezes the container between
 * invocations, and a batch left in memory would wait for the next one.
 */
public final class TracedHandler implements EventHandler {

  /** The functions a document passes through; the others (batches, schedules, doors) are not. */
  public static final List<String> DOCUMENT_WALK =
      List.of("intake", "prepare", "dispatch", "complete", "dlq");

  private final String function;
  private final Tracing tracing;
  private final EventHandler handler;

  public TracedHandler(String function, Tracing tracing, EventHandler handler) {
    this.function = Objects.requireNonNull(function, "function");
    this.tracing = Objects.requireNonNull(tracing, "tracing");
    this.handler = Objects.requireNonNull(handler, "handler");
  }

  @Override
  public void handle(InputStream event, OutputStream reply) throws IOException {
    if (!tracing.enabled()) {
      handler.handle(event, reply);
      return;
    }
    byte[] bytes = event.readAllBytes();
    JsonNode stream = streamOf(bytes);
    Context parent = Traceparent.parent(stream.path("metadata").path("traceparent").asText(""));
    try {
      Spans.inSpan(
          tracing.tracer(),
          function,
          SpanKind.SERVER,
          parent,
          span -> {
            String docId = docId(stream);
            if (!docId.isEmpty()) {
              Spans.aboutDocument(span, docId);
            }
            String node = stream.path("currentNodeId").asText("");
            if (!node.isEmpty()) {
              span.setAttribute(Spans.NODE_ID, node);
            }
            handler.handle(new ByteArrayInputStream(bytes), reply);
            return null;
          });
    } finally {
      tracing.flush();
    }
  }

  /** The task input's {@code stream}, or a missing node: the wrapped handler refuses bad input. */
  private static JsonNode streamOf(byte[] bytes) {
    try {
      return EventJson.MAPPER.readTree(bytes).path("stream");
    } catch (IOException | RuntimeException e) {
      return EventJson.MAPPER.missingNode();
    }
  }

  private static String docId(JsonNode stream) {
    String ref = stream.path("documentRef").path("docId").asText("");
    return ref.isEmpty() ? stream.path("document").path("docId").asText("") : ref;
  }
}
