package dev.protomolt.access.tracing;

import dev.protomolt.core.tracing.TraceSource;
import dev.protomolt.core.tracing.TraceSpan;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import software.amazon.awssdk.services.xray.XRayClient;
import software.amazon.awssdk.services.xray.model.BatchGetTracesResponse;
import software.amazon.awssdk.services.xray.model.GetTraceSummariesResponse;
import software.amazon.awssdk.services.xray.model.Segment;
import software.amazon.awssdk.services.xray.model.Trace;
import software.amazon.awssdk.services.xray.model.TraceSummary;

/**
 * A document's traces read back from X-Ray (decision 1830): {@code GetTraceSummaries} over the
 * last {@link #WINDOW} filtered on the document-id annotation, then {@code BatchGetTraces} of the
 * newest {@link #TRACES} traces found, each segment document turned back into a span.
 */
public final class XRayTraceSource implements TraceSource {

  /** How far back a trace is searched: X-Ray's longest GetTraceSummaries range is 24 hours. */
  public static final Duration WINDOW = Duration.ofHours(24);

  /** How many traces are fetched: BatchGetTraces takes at most five ids per call. */
  static final int TRACES = 5;

  private final XRayClient xray;
  private final Clock clock;

  public XRayTraceSource(XRayClient xray, Clock clock) {
    this.xray = Objects.requireNonNull(xray, "xray");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public List<TraceSpan> tracesNaming(String docId) {
    if (docId.contains("\"") || docId.contains("\\")) {
      // Not a document id the platform issues, and not one to splice into a filter expression.
      return List.of();
    }
    Instant now = clock.instant();
    List<TraceSummary> found = new ArrayList<>();
    String token = null;
    do {
      String page = token;
      GetTraceSummariesResponse r =
          xray.getTraceSummaries(
              b ->
                  b.startTime(now.minus(WINDOW))
                      .endTime(now)
                      .filterExpression(
                          "annotation." + XRaySegments.DOC_ANNOTATION + " = \"" + docId + "\"")
                      .nextToken(page));
      found.addAll(r.traceSummaries());
      token = r.nextToken();
    } while (token != null && !token.isEmpty());
    List<String> ids =
        found.stream()
            .sorted((a, b) -> compare(b.startTime(), a.startTime()))
            .map(TraceSummary::id)
            .distinct()
            .limit(TRACES)
            .toList();
    if (ids.isEmpty()) {
      return List.of();
    }
    List<TraceSpan> spans = new ArrayList<>();
    String next = null;
    do {
      String page = next;
      BatchGetTracesResponse r = xray.batchGetTraces(b -> b.traceIds(ids).nextToken(page));
      for (Trace trace : r.traces()) {
        for (Segment segment : trace.segments()) {
          spans.add(XRaySegments.span(segment.document()));
        }
      }
      next = r.nextToken();
    } while (next != null && !next.isEmpty());
    return spans;
  }

  private static int compare(Instant a, Instant b) {
    if (a == null || b == null) {
      return a == null ? (b == null ? 0 : -1) : 1;
    }
    return a.compareTo(b);
  }
}
