package dev.protomolt.lambda.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.protomolt.core.graph.GraphStore.Deactivation;
import dev.protomolt.core.graph.GraphStore.StoredGraph;
import dev.protomolt.engine.activation.GraphActivationService;
import dev.protomolt.engine.activation.GraphActivationService.Activation;
import dev.protomolt.engine.graphs.GraphAdminService;
import dev.protomolt.lambda.EventHandler;
import dev.protomolt.lambda.EventJson;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.ValidationMode;
import dev.protomolt.proto.config.v1.ValidationResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * {@code graph-admin}: one graph operation per invocation, named by {@code operation}.
 *
 * <ul>
 *   <li>{@code create} {graph, expectedVersion?, createdBy?}: validate and store a new inactive version;
 *   <li>{@code validate} {graph, mode}: the validation result, nothing stored;
 *   <li>{@code activate} {graphId, clusterId, version}: compile, publish, record the version ARN,
 *       flip the store and move the {@code active} alias; activating an older version is the rollback;
 *   <li>{@code deactivate} {graphId, clusterId}: stop new admissions;
 *   <li>{@code delete} {graphId, clusterId, version}: refused while executions are pinned to it.
 * </ul>
 *
 * {@code graph} is a {@code PipelineGraph} in protobuf JSON. A refused operation surfaces as the
 * service's own exception.
 */
public final class GraphAdminHandler implements EventHandler {

  public static final String NAME = "graph-admin";

  private static final JsonFormat.Parser GRAPH = JsonFormat.parser();
  private static final JsonFormat.Printer PRINTER =
      JsonFormat.printer().omittingInsignificantWhitespace();

  private final EventJson json = new EventJson(NAME);
  private final GraphAdminService admin;
  private final GraphActivationService activation;

  public GraphAdminHandler(GraphAdminService admin, GraphActivationService activation) {
    this.admin = Objects.requireNonNull(admin, "admin");
    this.activation = Objects.requireNonNull(activation, "activation");
  }

  @Override
  public void handle(InputStream event, OutputStream reply) throws IOException {
    JsonNode request = json.object(event);
    String operation = json.text(request, "", "operation");
    ObjectNode out = EventJson.reply();
    out.put("operation", operation);
    switch (operation) {
      case "create" -> {
        PipelineGraph graph = graph(request);
        long expected = json.optionalInteger(request, "", "expectedVersion", 0, -1);
        String createdBy = json.optionalText(request, "", "createdBy");
        StoredGraph stored =
            admin.create(
                graph,
                expected < 0 ? OptionalLong.empty() : OptionalLong.of(expected),
                createdBy.isBlank() ? NAME : createdBy);
        stored(out, stored);
      }
      case "validate" -> {
        PipelineGraph graph = graph(request);
        String mode = json.text(request, "", "mode");
        ValidationMode parsed;
        try {
          parsed = ValidationMode.valueOf(mode);
        } catch (IllegalArgumentException e) {
          throw json.refuse(
              "mode",
              "must be one of VALIDATION_MODE_DRAFT, VALIDATION_MODE_DESIGN,"
                  + " VALIDATION_MODE_PRODUCTION, was '"
                  + mode
                  + "'",
              e);
        }
        ValidationResult result = admin.validate(graph, parsed);
        out.set("result", EventJson.MAPPER.readTree(PRINTER.print(result)));
      }
      case "activate" -> {
        Activation done =
            activation.activate(
                json.text(request, "", "graphId"),
                json.text(request, "", "clusterId"),
                json.integer(request, "", "version", 1));
        out.put("graphId", done.graphId());
        out.put("version", done.version());
        out.put("machineArn", done.machineArn());
        out.put("versionArn", done.versionArn());
      }
      case "deactivate" -> {
        Deactivation done =
            admin.deactivate(
                json.text(request, "", "graphId"), json.text(request, "", "clusterId"));
        out.put("deactivatedVersion", done.deactivatedVersion());
        out.put("epoch", done.epoch());
      }
      case "delete" -> {
        String graphId = json.text(request, "", "graphId");
        long version = json.integer(request, "", "version", 1);
        admin.delete(graphId, json.text(request, "", "clusterId"), version);
        out.put("graphId", graphId);
        out.put("version", version);
      }
      default ->
          throw json.refuse(
              "operation",
              "must be create, validate, activate, deactivate or"
                  + " delete, was '"
                  + operation
                  + "'");
    }
    EventJson.write(reply, out);
  }

  private PipelineGraph graph(JsonNode request) {
    JsonNode node = json.objectField(request, "", "graph");
    PipelineGraph.Builder graph = PipelineGraph.newBuilder();
    try {
      GRAPH.merge(node.toString(), graph);
    } catch (InvalidProtocolBufferException e) {
      throw json.refuse("graph", "must be a PipelineGraph in protobuf JSON: " + e.getMessage(), e);
    }
    return graph.build();
  }

  private static void stored(ObjectNode out, StoredGraph stored) {
    out.put("graphId", stored.graph().getGraphId());
    out.put("clusterId", stored.graph().getClusterId());
    out.put("version", stored.graph().getVersion());
    out.put("active", stored.active());
    out.put("stateMachineVersionArn", stored.stateMachineVersionArn());
  }
}
