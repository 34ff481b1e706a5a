package dev.protomolt.lambda.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.protomolt.core.orchestration.AdmissionLog.AdmissionRecord;
import dev.protomolt.engine.admission.IntakeService;
import dev.protomolt.engine.admission.IntakeService.IntakeObject;
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
 * {@code intake}: an S3 event notification ({@code Records[].s3}) on the intake bucket. Each
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
    JsonNode records = json.arrayField(event, "", "Records");
    for (int i = 0; i < records.size(); i++) {
      String path = "Records[" + i + "]";
      JsonNode r = records.get(i);
      if (!r.isObject()) {
        throw json.refuse(path, "must be a JSON object");
      }
      if (!json.text(r, path, "eventName").startsWith("ObjectCreated:")) {
        continue;
      }
      JsonNode s3 = json.objectField(r, path, "s3");
      String s3Path = path + ".s3";
      String bucket = json.text(json.objectField(s3, s3Path, "bucket"), s3Path + ".bucket", "name");
      String objectPath = s3Path + ".object";
      JsonNode object = json.objectField(s3, s3Path, "object");
      String key;
      try {
        // S3 URL-encodes keys in notifications, a space as '+'.
        key = URLDecoder.decode(json.text(object, objectPath, "key"), StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        throw json.refuse(
            objectPath + ".key", "must be URL-encoded as S3 sends it: " + e.getMessage(), e);
      }
      objects.add(
          new IntakeObject(
              bucket,
              key,
              json.optionalInteger(object, objectPath, "size", 0, 0),
              json.optionalText(object, objectPath, "eTag"),
              json.optionalText(object, objectPath, "versionId")));
    }
    return objects;
  }
}
