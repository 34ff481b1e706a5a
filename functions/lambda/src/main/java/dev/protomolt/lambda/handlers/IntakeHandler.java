package dev.protomolt.lambda.handlers;

import com.amazonaws.services.lambda.runtime.events.S3Event;
import com.amazonaws.services.lambda.runtime.events.models.s3.S3EventNotification.S3EventNotificationRecord;
import com.amazonaws.services.lambda.runtime.events.models.s3.S3EventNotification.S3ObjectEntity;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.protomolt.core.orchestration.AdmissionLog.AdmissionRecord;
import dev.protomolt.engine.admission.IntakeService;
import dev.protomolt.engine.admission.IntakeService.IntakeObject;
import dev.protomolt.lambda.AwsEvents;
import dev.protomolt.lambda.EventHandler;
import dev.protomolt.lambda.EventJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * {@code intake}: an S3 event notification ({@code Records[].s3}, read as AWS's {@link S3Event})
 * on the intake bucket. Each
 * {@code ObjectCreated:*} record is one intake object, admitted through {@link IntakeService};
 * other event names (and the {@code s3:TestEvent} S3 sends when a notification is configured,
 * which has no {@code Records}) admit nothing. Every object is checked before the first is
 * admitted, so a malformed record refuses the whole event rather than half of it.
 *
 * <p>Reply: {@code {"admissions": [{key, docId, graphId, graphVersion, outcome, executionName, executionArn}]}}.
 */
public final class IntakeHandler implements EventHandler {

  public static final String NAME = "intake";

  private final EventJson json = new EventJson(NAME);
  private final IntakeService intake;

  public IntakeHandler(IntakeService intake) {
    this.intake = Objects.requireNonNull(intake, "intake");
  }

  @Override
  public void handle(InputStream event, OutputStream reply) throws IOException {
    List<IntakeObject> objects = objects(json.object(event));
    ArrayNode admissions = EventJson.MAPPER.createArrayNode();
    for (IntakeObject object : objects) {
      for (AdmissionRecord admitted : intake.admit(object)) {
        ObjectNode a = admissions.addObject();
        a.put("key", object.key());
        a.put("docId", admitted.docId());
        a.put("graphId", admitted.graphId());
        a.put("graphVersion", admitted.graphVersion());
        a.put("outcome", admitted.outcome().name());
        a.put("executionName", admitted.executionName());
        a.put("executionArn", admitted.executionArn());
      }
    }
    ObjectNode out = EventJson.reply();
    out.set("admissions", admissions);
    EventJson.write(reply, out);
  }

  private List<IntakeObject> objects(JsonNode event) {
    List<IntakeObject> objects = new ArrayList<>();
    if (!event.has("Records") && "s3:TestEvent".equals(event.path("Event").asText())) {
      return objects;
    }
    // AWS's serializer for S3Event gives up without a path on a record missing an entity it
    // builds, so the containers are checked here first; every value is then read from the typed
    // event.
    JsonNode records = json.arrayField(event, "", "Records");
    for (int i = 0; i < records.size(); i++) {
      String path = "Records[" + i + "]";
      JsonNode r = records.get(i);
      if (!r.isObject()) {
        throw json.refuse(path, "must be a JSON object");
      }
      if (json.text(r, path, "eventName").startsWith("ObjectCreated:")) {
        JsonNode s3 = json.objectField(r, path, "s3");
        json.objectField(s3, path + ".s3", "bucket");
        json.objectField(s3, path + ".s3", "object");
      }
    }
    List<S3EventNotificationRecord> typed =
        AwsEvents.read(json, event, S3Event.class, "an S3 event notification").getRecords();
    for (int i = 0; i < typed.size(); i++) {
      S3EventNotificationRecord r = typed.get(i);
      if (!r.getEventName().startsWith("ObjectCreated:")) {
        continue;
      }
      String objectPath = "Records[" + i + "].s3.object";
      String bucket = r.getS3().getBucket().getName();
      if (bucket == null || bucket.isBlank()) {
        throw json.refuse("Records[" + i + "].s3.bucket.name", "must be a non-blank string");
      }
      S3ObjectEntity object = r.getS3().getObject();
      if (object.getKey() == null || object.getKey().isBlank()) {
        throw json.refuse(objectPath + ".key", "must be a non-blank string");
      }
      String key;
      try {
        // S3 URL-encodes keys in notifications, a space as '+'.
        key = URLDecoder.decode(object.getKey(), StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        throw json.refuse(
            objectPath + ".key", "must be URL-encoded as S3 sends it: " + e.getMessage(), e);
      }
      Long size = object.getSizeAsLong();
      if (size != null && size < 0) {
        throw json.refuse(objectPath + ".size", "must be a whole number of at least 0");
      }
      objects.add(
          new IntakeObject(
              bucket,
              key,
              size == null ? 0 : size,
              object.geteTag() == null ? "" : object.geteTag(),
              object.getVersionId() == null ? "" : object.getVersionId()));
    }
    return objects;
  }
}
