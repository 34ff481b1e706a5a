package dev.protomolt.core.tracing;

import java.util.List;

/**
 * Where a deployment's spans are read back from: X-Ray in AWS, the local collector locally. It
 * answers every span of the traces that may name the document; {@link DocumentTrace#newest}
 * picks the document's one, so both stores are held to the same rule.
 */
public interface TraceSource {

  List<TraceSpan> tracesNaming(String docId);
}
