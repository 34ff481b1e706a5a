package dev.protomolt.engine.hop;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.StreamMetadata;
import dev.protomolt.proto.events.v1.ReclaimRequest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * Reclaim requests that wait for their hop to settle (decision 0816). Complete cannot ask for its
 * consumed CACHE input to be reclaimed itself: if its result is lost and Step Functions retries it
 * after the reclaim consumer ran, the retry can no longer read that input. So a Complete with
 * destinations writes its requests into each outgoing stream's context parameters, and the next
 * engine Lambda of the execution (the destination's Prepare, or its dead letter) produces them:
 * that Lambda only runs once Step Functions has recorded Complete's result. A terminal hop has no
 * such successor and produces its requests itself, as its last act.
 *
 * <p>Producing a carried request twice (a retried Prepare, fan-out children each carrying it) is
 * harmless: the consumer deletes only the exact copy a request names, once.
 */
final class SettledReclaims {

  /** Context parameter prefix; the rest of the key is the request's Kafka key. */
  static final String PARAM_PREFIX = "protomolt.reclaimOnSettle.";

  /** One request and the key it is produced under on {@code reclaim-requests}. */
  record Keyed(String key, ReclaimRequest request) {}

  private SettledReclaims() {}

  /** Adds each request to the stream's context parameters, to be produced by the next Lambda. */
  static void carry(StreamMetadata.Builder metadata, List<Keyed> requests) {
    for (Keyed k : requests) {
      metadata.putContextParams(
          PARAM_PREFIX + k.key(), Base64.getEncoder().encodeToString(k.request().toByteArray()));
    }
  }

  /** Produces the requests now; a broker failure is retried with the hop. */
  static void produce(HopContext hop, List<Keyed> requests) {
    for (Keyed k : requests) {
      try {
        hop.events.publish(CompleteService.RECLAIM_REQUESTS, k.key(), k.request().toByteArray());
      } catch (RuntimeException e) {
        throw new TransientHopFailure(
            "requesting the reclaim of "
                + k.request().getReason()
                + " (doc '"
                + k.request().getDocumentRef().getDocId()
                + "') failed: "
                + e.getMessage(),
            e);
      }
    }
  }

  /**
   * Produces every request the stream carries from the hop before it and returns the stream
   * without them, so they travel no further.
   *
   * @throws BadPayloadFailure naming the context parameter when one is not a ReclaimRequest
   */
  static PipeStream produceCarried(HopContext hop, PipeStream stream) {
    List<Keyed> carried = new ArrayList<>();
    StreamMetadata.Builder metadata = stream.getMetadata().toBuilder();
    for (Map.Entry<String, String> e : stream.getMetadata().getContextParamsMap().entrySet()) {
      if (!e.getKey().startsWith(PARAM_PREFIX)) {
        continue;
      }
      String field = "stream.metadata.context_params['" + e.getKey() + "']";
      ReclaimRequest request;
      try {
        request = ReclaimRequest.parseFrom(Base64.getDecoder().decode(e.getValue()));
      } catch (IllegalArgumentException | InvalidProtocolBufferException bad) {
        throw new BadPayloadFailure(
            field + " must be a base64 ReclaimRequest: " + bad.getMessage());
      }
      if (!request.hasDocumentRef()) {
        throw new BadPayloadFailure(field + " must name document_ref");
      }
      carried.add(new Keyed(e.getKey().substring(PARAM_PREFIX.length()), request));
      metadata.removeContextParams(e.getKey());
    }
    if (carried.isEmpty()) {
      return stream;
    }
    produce(hop, carried);
    return stream.toBuilder().setMetadata(metadata).build();
  }
}
