package dev.protomolt.lambda.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.protomolt.core.graph.GraphStore.StoredGraph;
import dev.protomolt.core.graph.GraphVersionDiff;
import dev.protomolt.engine.graphs.GraphAdminService;
import java.util.Objects;
import java.util.Optional;

/**
 * The console's view of one graph's versions: each stored version with whether it is active and
 * how many executions are still running pinned to it, the diff between two of them, and rollback
 * (activating an earlier version through graph admin's own {@code activate}, the path the graph
 * door's {@code ActivateGraph} takes, so it compiles, publishes and moves the alias the same way).
 */
final class GraphVersions {

  private final ObjectMapper mapper;
  private final GraphAdminService admin;

  GraphVersions(ObjectMapper mapper, GraphAdminService admin) {
    this.mapper = mapper;
    this.admin = Objects.requireNonNull(admin, "admin");
  }

  /** Every stored version, active flagged, with its running pinned executions. */
  ObjectNode versions(String graphId) {
    ObjectNode out = mapper.createObjectNode();
    out.put("graphId", graphId);
    ArrayNode list = out.putArray("versions");
    for (StoredGraph g : admin.versions(graphId)) {
      ObjectNode v = stored(g);
      v.put("runningExecutions", admin.pinnedExecutions(graphId, g.graph().getVersion()));
      list.add(v);
    }
    return out;
  }

  /** What changed from version {@code from} to version {@code to}. */
  JsonNode diff(String graphId, String from, String to) {
    StoredGraph before = version(graphId, "from", from);
    StoredGraph after = version(graphId, "to", to);
    return mapper.valueToTree(GraphVersionDiff.between(before.graph(), after.graph()));
  }

  /**
   * Activates an earlier (or any stored) version. {@code expectedActiveVersion}, when the body
   * carries it, is the version the operator saw active when they confirmed: if another version
   * was activated since, the rollback is refused rather than undoing a change they never saw.
   */
  ObjectNode rollback(String graphId, String version, JsonNode body) {
    long target = positive("version", version);
    String clusterId = body.path("clusterId").asText("");
    if (clusterId.isBlank()) {
      throw ConsoleRefusal.badRequest("clusterId", "is required: the cluster the graph runs in");
    }
    JsonNode given = body.get("expectedActiveVersion");
    if (given != null && !given.isNull()) {
      // A number, or a string as the protobuf JSON mapping prints every int64 (a graph's version).
      long expected =
          given.canConvertToExactIntegral()
              ? given.asLong()
              : given.isTextual() ? positive("expectedActiveVersion", given.asText()) : 0;
      if (expected < 1) {
        throw ConsoleRefusal.badRequest(
            "expectedActiveVersion", "must be a positive version number, was " + given);
      }
      Optional<StoredGraph> active = admin.get(graphId, clusterId, 0).filter(StoredGraph::active);
      long now = active.map(a -> a.graph().getVersion()).orElse(0L);
      if (now != expected) {
        throw new ConsoleRefusal(
            409,
            "expectedActiveVersion",
            "is "
                + expected
                + " but the active version is "
                + (now == 0 ? "none" : Long.toString(now))
                + ": the graph changed since you confirmed; look again before rolling back");
      }
    }
    if (admin.get(graphId, clusterId, target).isEmpty()) {
      throw new ConsoleRefusal(
          404,
          "version",
          "graph '" + graphId + "' has no version " + target + " in cluster '" + clusterId + "'");
    }
    return stored(admin.activate(graphId, clusterId, target));
  }

  private StoredGraph version(String graphId, String field, String value) {
    long version = positive(field, value);
    return admin
        .get(graphId, "", version)
        .orElseThrow(
            () ->
                new ConsoleRefusal(
                    404, field, "graph '" + graphId + "' has no version " + version));
  }

  private static long positive(String field, String value) {
    try {
      long v = Long.parseLong(value);
      if (v >= 1) {
        return v;
      }
    } catch (NumberFormatException e) {
      // Refused below with the value the caller sent.
    }
    throw ConsoleRefusal.badRequest(
        field, "must be a positive version number, was '" + value + "'");
  }

  ObjectNode stored(StoredGraph g) {
    ObjectNode out = mapper.createObjectNode();
    out.set("graph", ConsoleApiHandler.proto(g.graph()));
    out.put("active", g.active());
    out.put("stateMachineVersionArn", g.stateMachineVersionArn());
    return out;
  }
}
