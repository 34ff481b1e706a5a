package dev.protomolt.lambda.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.protomolt.db.Migrations.MigrationReport;
import dev.protomolt.lambda.EventHandler;
import dev.protomolt.lambda.EventJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@code migrate}: the CDK provider framework's custom-resource event (decision 0651).
 * {@code ResourceProperties.operation} is {@code migrate-schema} (Flyway over the ledger database)
 * or {@code ensure-topics} (create each missing Kafka topic, never delete or shrink one). Create
 * and Update do the operation; Delete returns at once and touches nothing. Reply:
 * {@code {"PhysicalResourceId": "protomolt-<operation>", "Data": {...}}}.
 */
public final class MigrateHandler implements EventHandler {

  public static final String NAME = "migrate";

  /** A topic the stack declares. */
  public record TopicSpec(String name, int partitions) {}

  private final EventJson json = new EventJson(NAME);
  private final Supplier<MigrationReport> schema;
  private final Function<List<TopicSpec>, List<String>> topics;

  /**
   * @param schema applies the migrations (only called for {@code migrate-schema})
   * @param topics creates the missing topics and returns the names it created
   */
  public MigrateHandler(
      Supplier<MigrationReport> schema, Function<List<TopicSpec>, List<String>> topics) {
    this.schema = Objects.requireNonNull(schema, "schema");
    this.topics = Objects.requireNonNull(topics, "topics");
  }

  @Override
  public void handle(InputStream event, OutputStream reply) throws IOException {
    JsonNode request = json.object(event);
    String requestType = json.text(request, "", "RequestType");
    if (!List.of("Create", "Update", "Delete").contains(requestType)) {
      throw json.refuse(
          "RequestType", "must be Create, Update or Delete, was '" + requestType + "'");
    }
    JsonNode properties = json.objectField(request, "", "ResourceProperties");
    String operation = json.text(properties, "ResourceProperties", "operation");
    List<TopicSpec> wanted =
        switch (operation) {
          case "migrate-schema" -> List.of();
          case "ensure-topics" -> topicSpecs(properties);
          default ->
              throw json.refuse(
                  "ResourceProperties.operation",
                  "must be migrate-schema or" + " ensure-topics, was '" + operation + "'");
        };
    ObjectNode out = EventJson.reply();
    out.put("PhysicalResourceId", "protomolt-" + operation);
    ObjectNode data = out.putObject("Data");
    if (requestType.equals("Delete")) {
      // Deleting the stack must never drop the schema or a topic: data outlives the resource.
      data.put("deleted", "nothing");
    } else if (operation.equals("migrate-schema")) {
      MigrationReport report = schema.get();
      data.put("applied", report.applied());
      // Flyway names no target version when nothing was pending: the schema stayed where it was.
      String version = report.toVersion() != null ? report.toVersion() : report.fromVersion();
      data.put("schemaVersion", version == null ? "" : version);
    } else {
      data.put("created", String.join(",", topics.apply(wanted)));
    }
    EventJson.write(reply, out);
  }

  private List<TopicSpec> topicSpecs(JsonNode properties) {
    JsonNode list = json.arrayField(properties, "ResourceProperties", "topics");
    List<TopicSpec> specs = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      String path = "ResourceProperties.topics[" + i + "]";
      JsonNode t = list.get(i);
      if (!t.isObject()) {
        throw json.refuse(path, "must be a JSON object {name, partitions}");
      }
      // CloudFormation passes every custom-resource property as a string, so "3" is accepted.
      JsonNode p = t.get("partitions");
      int partitions;
      try {
        partitions = p == null ? 0 : Integer.parseInt(p.asText());
      } catch (NumberFormatException e) {
        partitions = 0;
      }
      if (partitions < 1) {
        throw json.refuse(path + ".partitions", "must be a whole number of at least 1");
      }
      specs.add(new TopicSpec(json.text(t, path, "name"), partitions));
    }
    return specs;
  }
}
