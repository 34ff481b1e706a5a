package dev.protomolt.lambda.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.protomolt.engine.reclaim.ReclaimService;
import dev.protomolt.lambda.EventHandler;
import dev.protomolt.lambda.EventJson;
import dev.protomolt.lambda.handlers.KafkaBatch.KafkaRecord;
import dev.protomolt.names.PlatformTopic;
import dev.protomolt.proto.events.v1.DocumentDeleted;
import dev.protomolt.repository.purge.DeletionRequests;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * {@code reclaim}: one MSK mapping per topic delivers {@code reclaim-requests} (CACHE copies a
 * settled hop consumed, to {@link ReclaimService}, which takes the raw values and reports a
 * malformed one rather than stalling on it) and {@code document-deleted} (explicit deletes, to
 * {@link DeletionRequests#delete}; an undecodable record refuses the batch, decision 0831). A batch
 * holds one topic's records; any other topic is refused by name.
 */
public final class ReclaimHandler implements EventHandler {

  public static final String NAME = "reclaim";
  public static final String RECLAIM_REQUESTS = PlatformTopic.RECLAIM_REQUESTS.topicName();
  public static final String DOCUMENT_DELETED = PlatformTopic.DOCUMENT_DELETED.topicName();

  private final EventJson json = new EventJson(NAME);
  private final ReclaimService reclaims;
  private final DeletionRequests deletions;

  public ReclaimHandler(ReclaimService reclaims, DeletionRequests deletions) {
    this.reclaims = Objects.requireNonNull(reclaims, "reclaims");
    this.deletions = Objects.requireNonNull(deletions, "deletions");
  }

  @Override
  public void handle(InputStream event, OutputStream reply) throws IOException {
    List<KafkaRecord> records = KafkaBatch.records(json, json.object(event));
    List<byte[]> reclaimValues = new ArrayList<>();
    List<DocumentDeleted> deleted = new ArrayList<>();
    for (KafkaRecord r : records) {
      switch (PlatformTopic.byName(r.topic()).orElse(null)) {
        case RECLAIM_REQUESTS -> reclaimValues.add(r.value());
        case DOCUMENT_DELETED -> deleted.add(documentDeleted(r));
        case null, default ->
            throw json.refuse(
                r.path() + ".topic",
                "must be "
                    + RECLAIM_REQUESTS
                    + " or "
                    + DOCUMENT_DELETED
                    + ", was '"
                    + r.topic()
                    + "'");
      }
    }
    var out = EventJson.reply();
    out.put("records", records.size());
    if (!reclaimValues.isEmpty()) {
      out.set("reclaimed", tree(reclaims.handle(reclaimValues)));
    }
    if (!deleted.isEmpty()) {
      out.set("deleted", tree(deletions.delete(deleted)));
    }
    EventJson.write(reply, out);
  }

  private DocumentDeleted documentDeleted(KafkaRecord r) {
    try {
      return DocumentDeleted.parseFrom(r.value());
    } catch (InvalidProtocolBufferException e) {
      throw json.refuse(
          r.path() + ".value",
          "must be a DocumentDeleted (protobuf); topic "
              + r.topic()
              + " partition "
              + r.partition()
              + " offset "
              + r.offset()
              + " is not: "
              + e.getMessage(),
          e);
    }
  }

  private static JsonNode tree(Object report) {
    return EventJson.MAPPER.valueToTree(report);
  }
}
