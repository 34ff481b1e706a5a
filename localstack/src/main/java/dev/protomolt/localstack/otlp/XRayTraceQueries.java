package dev.protomolt.localstack.otlp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import dev.protomolt.access.tracing.XRaySegments;
import dev.protomolt.core.tracing.DocumentTrace;
import dev.protomolt.core.tracing.TraceSpan;
import dev.protomolt.localstack.iam.PrincipalRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * X-Ray's two read actions over the spans the local collector keeps, so the console API reads its
 * traces locally exactly as it does in AWS (decision 1830): {@code POST /TraceSummaries}
 * (GetTraceSummaries, filtered by the document-id annotation only) and {@code POST /Traces}
 * (BatchGetTraces, each span one segment document in {@link XRaySegments}' shape). Signed calls
 * are checked as the collector checks exports: the signature, then the signer's policies for the
 * action.
 */
public final class XRayTraceQueries {

  static final String SUMMARIES = "/TraceSummaries";
  static final String TRACES = "/Traces";

  /** The one filter understood: the document-id annotation equal to a quoted value. */
  private static final Pattern DOC_FILTER =
      Pattern.compile(
          "\\s*annotation\\." + XRaySegments.DOC_ANNOTATION + "\\s*=\\s*\"([^\"\\\\]*)\"\\s*");

  private static final ObjectMapper JSON = new ObjectMapper();

  private final LocalTraces traces;
  private final ExportAuthorization authorization;
  private final Clock clock;

  public XRayTraceQueries(LocalTraces traces, PrincipalRegistry iam, Clock clock) {
    this.traces = Objects.requireNonNull(traces, "traces");
    this.authorization = new ExportAuthorization(iam);
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  public static boolean handles(HttpExchange exchange) {
    String path = exchange.getRequestURI().getPath();
    return SUMMARIES.equals(path) || TRACES.equals(path);
  }

  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      if (!"POST".equals(exchange.getRequestMethod())) {
        error(exchange, 405, "InvalidRequestException", "POST " + path + " only");
        return;
      }
      byte[] body = exchange.getRequestBody().readAllBytes();
      String action = SUMMARIES.equals(path) ? "xray:GetTraceSummaries" : "xray:BatchGetTraces";
      Optional<ExportAuthorization.Refusal> refused =
          authorization.check(
              action, "POST", path, exchange.getRequestHeaders()::getFirst, body, clock.instant());
      if (refused.isPresent()) {
        error(exchange, refused.get().status(), refused.get().code(), refused.get().message());
        return;
      }
      JsonNode request;
      try {
        request = body.length == 0 ? JSON.createObjectNode() : JSON.readTree(body);
      } catch (IOException e) {
        error(exchange, 400, "InvalidRequestException", "body: not JSON: " + e.getMessage());
        return;
      }
      try {
        ObjectNode answer = SUMMARIES.equals(path) ? summaries(request) : batch(request);
        reply(exchange, 200, JSON.writeValueAsBytes(answer));
      } catch (IllegalArgumentException e) {
        error(exchange, 400, "InvalidRequestException", e.getMessage());
      }
    }
  }

  private ObjectNode summaries(JsonNode request) {
    String filter = request.path("FilterExpression").asText("");
    Matcher m = DOC_FILTER.matcher(filter);
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "FilterExpression: the local collector answers only 'annotation."
              + XRaySegments.DOC_ANNOTATION
              + " = \"<doc-id>\"', got '"
              + filter
              + "'");
    }
    if (!request.path("StartTime").isNumber() || !request.path("EndTime").isNumber()) {
      throw new IllegalArgumentException("StartTime, EndTime: required, in epoch seconds");
    }
    long from = (long) (request.path("StartTime").asDouble() * 1e9);
    long to = (long) (request.path("EndTime").asDouble() * 1e9);
    Map<String, ObjectNode> byTrace = new LinkedHashMap<>();
    for (TraceSpan span : traces.all()) {
      // As in X-Ray, an attribute the span did not list as an annotation cannot be filtered on.
      if (m.group(1).equals(span.attributes().get(DocumentTrace.DOC_ID))
          && XRaySegments.indexesDocument(span)
          && span.startNanos() >= from
          && span.startNanos() <= to) {
        ObjectNode summary = JSON.createObjectNode();
        summary.put("Id", XRaySegments.xrayTraceId(span.traceId()));
        summary.put("StartTime", span.startNanos() / 1e9);
        byTrace.putIfAbsent(span.traceId(), summary);
      }
    }
    ObjectNode out = JSON.createObjectNode();
    ArrayNode list = out.putArray("TraceSummaries");
    byTrace.values().forEach(list::add);
    out.put("ApproximateTime", clock.instant().getEpochSecond());
    out.put("TracesProcessedCount", byTrace.size());
    return out;
  }

  private ObjectNode batch(JsonNode request) {
    if (!request.path("TraceIds").isArray() || request.path("TraceIds").isEmpty()) {
      throw new IllegalArgumentException("TraceIds: required, 1 to 5 trace ids");
    }
    Set<String> wanted = new LinkedHashSet<>();
    request.path("TraceIds").forEach(id -> wanted.add(XRaySegments.otelTraceId(id.asText())));
    List<TraceSpan> all = traces.all();
    ObjectNode out = JSON.createObjectNode();
    ArrayNode list = out.putArray("Traces");
    ArrayNode unprocessed = out.putArray("UnprocessedTraceIds");
    for (String id : wanted) {
      List<TraceSpan> spans = all.stream().filter(s -> s.traceId().equals(id)).toList();
      if (spans.isEmpty()) {
        unprocessed.add(XRaySegments.xrayTraceId(id));
        continue;
      }
      ObjectNode trace = list.addObject();
      trace.put("Id", XRaySegments.xrayTraceId(id));
      ArrayNode segments = trace.putArray("Segments");
      for (TraceSpan span : spans) {
        ObjectNode segment = segments.addObject();
        segment.put("Id", span.spanId());
        segment.put("Document", XRaySegments.document(span));
      }
    }
    return out;
  }

  private static void error(HttpExchange exchange, int status, String code, String message)
      throws IOException {
    exchange.getResponseHeaders().set("X-Amzn-ErrorType", code);
    ObjectNode body = JSON.createObjectNode();
    body.put("message", message);
    reply(exchange, status, JSON.writeValueAsBytes(body));
  }

  private static void reply(HttpExchange exchange, int status, byte[] body) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }
}
