package dev.protomolt.access.tracing;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.protomolt.core.tracing.DocumentTrace;
import dev.protomolt.core.tracing.TraceSpan;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A span as an X-Ray segment document and back (decision 1830). X-Ray names a segment by its
 * service, times it in epoch seconds, ids its trace {@code 1-<8 hex>-<24 hex>}, keeps as
 * annotations only the attributes the span lists in {@code aws.xray.annotations} (dots become
 * underscores, the only indexed form) and every other attribute under {@code metadata.default},
 * with the span's own name and status under {@code metadata.otel}. The local collector writes this
 * shape and the console's adapter reads it, so one class holds both directions.
 */
public final class XRaySegments {

  /** The document-id attribute as X-Ray indexes it: annotation keys take no dots. */
  public static final String DOC_ANNOTATION = DocumentTrace.DOC_ID.replace('.', '_');

  // Times as exact decimals both ways, so a span's nanoseconds survive the round trip.
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

  private XRaySegments() {}

  /** {@code 0af7651916cd43dd8448eb211c80319c} as X-Ray writes it: {@code 1-0af76519-16cd...}. */
  public static String xrayTraceId(String otelTraceId) {
    if (otelTraceId.length() != 32) {
      throw new IllegalArgumentException(
          "traceId: must be 32 hex digits, was '" + otelTraceId + "'");
    }
    return "1-" + otelTraceId.substring(0, 8) + "-" + otelTraceId.substring(8);
  }

  /** The OpenTelemetry trace id of X-Ray's {@code 1-<8 hex>-<24 hex>}. */
  public static String otelTraceId(String xrayTraceId) {
    String[] parts = xrayTraceId.split("-");
    if (parts.length != 3
        || !parts[0].equals("1")
        || parts[1].length() != 8
        || parts[2].length() != 24) {
      throw new IllegalArgumentException(
          "TraceIds: '" + xrayTraceId + "' is not an X-Ray trace id (1-<8 hex>-<24 hex>)");
    }
    return (parts[1] + parts[2]).toLowerCase(Locale.ROOT);
  }

  public static String document(TraceSpan span) {
    ObjectNode doc = JSON.createObjectNode();
    doc.put("id", span.spanId());
    doc.put("trace_id", xrayTraceId(span.traceId()));
    if (!span.parentSpanId().isEmpty()) {
      doc.put("parent_id", span.parentSpanId());
    }
    doc.put("name", span.service());
    doc.put("start_time", BigDecimal.valueOf(span.startNanos(), 9));
    doc.put("end_time", BigDecimal.valueOf(span.endNanos(), 9));
    if ("ERROR".equals(span.status())) {
      doc.put("fault", true);
    }
    Set<String> indexed = indexed(span);
    ObjectNode annotations = doc.putObject("annotations");
    ObjectNode metadata = doc.putObject("metadata");
    ObjectNode unindexed = metadata.putObject("default");
    span.attributes()
        .forEach(
            (k, v) -> {
              if (indexed.contains(k)) {
                annotations.put(k.replace('.', '_'), v);
              } else if (!k.equals(DocumentTrace.XRAY_ANNOTATIONS)) {
                unindexed.put(k, v);
              }
            });
    ObjectNode otel = metadata.putObject("otel");
    otel.put("span.name", span.name());
    otel.put("status.code", span.status());
    otel.put("status.message", span.statusMessage());
    try {
      return JSON.writeValueAsString(doc);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Whether X-Ray indexes {@code span}'s document id, so a filter on it can find the span. */
  public static boolean indexesDocument(TraceSpan span) {
    return indexed(span).contains(DocumentTrace.DOC_ID);
  }

  private static Set<String> indexed(TraceSpan span) {
    String listed = span.attributes().getOrDefault(DocumentTrace.XRAY_ANNOTATIONS, "");
    return listed.isEmpty() ? Set.of() : Set.copyOf(Arrays.asList(listed.split(",")));
  }

  /**
   * The span of a segment {@code document}: its metadata attributes under their own keys, its
   * annotations keyed as X-Ray writes them but for the document id, read back by name.
   */
  public static TraceSpan span(String document) {
    JsonNode doc;
    try {
      doc = JSON.readTree(document);
    } catch (IOException e) {
      throw new UncheckedIOException("an X-Ray segment document is not JSON", e);
    }
    JsonNode otel = doc.path("metadata").path("otel");
    Map<String, String> attributes = new LinkedHashMap<>();
    doc.path("metadata")
        .path("default")
        .properties()
        .forEach(e -> attributes.put(e.getKey(), e.getValue().asText()));
    doc.path("annotations")
        .properties()
        .forEach(e -> attributes.put(e.getKey(), e.getValue().asText()));
    // The one attribute read back by name: the selection rule (decision 1795) keys on it.
    String docId = attributes.remove(DOC_ANNOTATION);
    if (docId != null) {
      attributes.put(DocumentTrace.DOC_ID, docId);
    }
    String status =
        otel.path("status.code").asText(doc.path("fault").asBoolean() ? "ERROR" : "UNSET");
    return new TraceSpan(
        otelTraceId(doc.path("trace_id").asText()),
        doc.path("id").asText(),
        doc.path("parent_id").asText(""),
        otel.path("span.name").asText(doc.path("name").asText()),
        doc.path("name").asText(),
        nanos(doc.path("start_time")),
        nanos(doc.path("end_time")),
        status,
        otel.path("status.message").asText(""),
        attributes);
  }

  private static long nanos(JsonNode seconds) {
    return seconds.decimalValue().movePointRight(9).longValue();
  }
}
