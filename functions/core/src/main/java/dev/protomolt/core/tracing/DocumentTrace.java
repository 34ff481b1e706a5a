package dev.protomolt.core.tracing;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Which trace is "the document's" (decision 1795): the trace of the latest-starting span that
 * names the document, all of its spans earliest first. One rule for {@code protomolt trace} and
 * the console, whichever store the spans came from.
 */
public final class DocumentTrace {

  /** The attribute the platform's spans name their document with (the tracing module's). */
  public static final String DOC_ID = "protomolt.doc_id";

  /**
   * The attribute listing which of a span's attributes X-Ray indexes as annotations; as text
   * here, its entries joined by commas (the tracing module's {@code Spans.XRAY_ANNOTATIONS}).
   */
  public static final String XRAY_ANNOTATIONS = "aws.xray.annotations";

  private DocumentTrace() {}

  /** The newest trace among {@code spans} naming {@code docId}; empty when none names it. */
  public static List<TraceSpan> newest(Collection<TraceSpan> spans, String docId) {
    Optional<String> traceId =
        spans.stream()
            .filter(s -> docId.equals(s.attributes().get(DOC_ID)))
            .max(Comparator.comparingLong(TraceSpan::startNanos))
            .map(TraceSpan::traceId);
    if (traceId.isEmpty()) {
      return List.of();
    }
    return spans.stream()
        .filter(s -> s.traceId().equals(traceId.get()))
        .sorted(Comparator.comparingLong(TraceSpan::startNanos))
        .toList();
  }
}
