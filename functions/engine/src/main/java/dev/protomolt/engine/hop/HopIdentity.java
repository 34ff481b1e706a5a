package dev.protomolt.engine.hop;

import com.fasterxml.jackson.databind.JsonNode;

/** The identity every hop payload starts with (compiled into the definition, see the state contract). */
public record HopIdentity(
    String graphId, long graphVersion, String clusterId, String nodeId, String executionId) {

  static HopIdentity of(JsonNode payload) {
    return new HopIdentity(
        HopJson.text(payload, "graphId"),
        HopJson.positiveLong(payload, "graphVersion"),
        HopJson.text(payload, "clusterId"),
        HopJson.text(payload, "nodeId"),
        HopJson.text(payload, "executionId"));
  }
}
