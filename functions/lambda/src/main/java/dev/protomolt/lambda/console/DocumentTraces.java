package dev.protomolt.lambda.console;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.protomolt.core.tracing.DocumentTrace;
import dev.protomolt.core.tracing.TraceSource;
import dev.protomolt.core.tracing.TraceSpan;
import dev.protomolt.core.tracing.TraceTree;
import java.util.List;
import java.util.Objects;

/**
 * The document view's trace (decision 1830): the newest trace naming the document, chosen by the
 * rule {@code protomolt trace} uses (decision 1795), as the rows of its tree in display order,
 * each with its depth so the page indents without rebuilding the tree.
 */
final class DocumentTraces {

  private final ObjectMapper mapper;
  private final TraceSource source;

  DocumentTraces(ObjectMapper mapper, TraceSource source) {
    this.mapper = Objects.requireNonNull(mapper, "mapper");
    this.source = Objects.requireNonNull(source, "traces");
  }

  /** The caller has checked that the document is theirs; no span naming it is a 404. */
  ObjectNode tree(String docId) {
    List<TraceSpan> spans = DocumentTrace.newest(source.tracesNaming(docId), docId);
    if (spans.isEmpty()) {
      throw new ConsoleRefusal(404, "docId", "has no recorded trace");
    }
    ObjectNode out = mapper.createObjectNode();
    out.put("docId", docId);
    out.put("traceId", spans.getFirst().traceId());
    ArrayNode list = out.putArray("spans");
    for (TraceTree.Row row : TraceTree.rows(spans)) {
      TraceSpan span = row.span();
      ObjectNode s = list.addObject();
      s.put("spanId", span.spanId());
      s.put("parentSpanId", span.parentSpanId());
      s.put("depth", row.depth());
      s.put("parentMissing", row.parentMissing());
      s.put("name", span.name());
      s.put("service", span.service());
      s.put("startOffsetMs", row.offsetNanos() / 1e6);
      s.put("durationMs", span.durationNanos() / 1e6);
      s.put("status", span.status());
      s.put("statusMessage", span.statusMessage());
    }
    return out;
  }
}
