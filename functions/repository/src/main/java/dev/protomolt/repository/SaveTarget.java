package dev.protomolt.repository;

import dev.protomolt.core.identity.GraphIds;
import dev.protomolt.core.identity.InvalidIdentityException;
import dev.protomolt.core.identity.NodeCoordinates;
import dev.protomolt.core.identity.NodeIds;
import dev.protomolt.core.identity.RowKind;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.repository.v1.SavePipeDocRequest;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Where a save lands, validated: a save whose identity is blank or self-contradictory never gets
 * as far as the ledger, and the refusal names the field.
 *
 * @param clusterId null for intake saves
 * @param datasourceId null when not given
 */
record SaveTarget(
    NodeCoordinates coordinates,
    UUID nodeId,
    RowKind rowKind,
    String clusterId,
    String datasourceId,
    String crawlId) {

  static SaveTarget of(SavePipeDocRequest request) {
    if (!request.hasPipedoc()) {
      throw new PipeDocStoreException.InvalidRequest("pipedoc", "required");
    }
    PipeDoc doc = request.getPipedoc();
    requireNotBlank(doc.getDocId(), "pipedoc.doc_id");
    String accountId = request.getAccountId();
    requireNotBlank(accountId, "account_id");
    if (!request.hasGraphId()) {
      throw new PipeDocStoreException.InvalidRequest(
          "graph_id",
          "required on every save (intake:<account_id> for intake, the graph for pipeline copies)");
    }
    requireNotBlank(request.getGraphId(), "graph_id");
    if (doc.hasOwnership()
        && !doc.getOwnership().getAccountId().isEmpty()
        && !doc.getOwnership().getAccountId().equals(accountId)) {
      throw new PipeDocStoreException.InvalidRequest(
          "pipedoc.ownership.account_id",
          "must equal account_id '"
              + accountId
              + "' but was '"
              + doc.getOwnership().getAccountId()
              + "'");
    }
    if (doc.getOwnership().getRightToBeForgotten()) {
      throw new PipeDocStoreException.InvalidRequest(
          "pipedoc.ownership.right_to_be_forgotten",
          "a right-to-be-forgotten document is never written to the repository");
    }
    String graphAddressId;
    String clusterId = blankToNull(request.getClusterId());
    RowKind rowKind;
    switch (request.getGraphAddressCase()) {
      case USE_DATASOURCE_ID -> {
        if (!request.getUseDatasourceId()) {
          throw new PipeDocStoreException.InvalidRequest(
              "use_datasource_id",
              "must be true when set (set graph_location_id for a pipeline save)");
        }
        requireNotBlank(request.getDatasourceId(), "datasource_id");
        String expected = identity(() -> GraphIds.intakeGraphId(accountId), "account_id");
        if (!request.getGraphId().equals(expected)) {
          throw new PipeDocStoreException.InvalidRequest(
              "graph_id",
              "an intake save must name graph " + expected + " but named " + request.getGraphId());
        }
        if (clusterId != null) {
          throw new PipeDocStoreException.InvalidRequest(
              "cluster_id", "must be empty for an intake save (intake rows belong to no cluster)");
        }
        graphAddressId = request.getDatasourceId();
        rowKind = RowKind.INTAKE;
      }
      case GRAPH_LOCATION_ID -> {
        requireNotBlank(request.getGraphLocationId(), "graph_location_id");
        identity(() -> GraphIds.requirePipelineGraphId(request.getGraphId()), "");
        graphAddressId = request.getGraphLocationId();
        rowKind = RowKind.PIPELINE;
      }
      case GRAPHADDRESS_NOT_SET ->
          throw new PipeDocStoreException.InvalidRequest(
              "graph_address",
              "set use_datasource_id for an intake save or graph_location_id for a pipeline save");
      default -> throw new IllegalStateException("unknown graph_address case");
    }
    NodeCoordinates coordinates =
        identity(
            () ->
                new NodeCoordinates(
                    doc.getDocId(), graphAddressId, accountId, request.getGraphId()),
            "");
    return new SaveTarget(
        coordinates,
        NodeIds.nodeId(coordinates),
        rowKind,
        clusterId,
        blankToNull(request.getDatasourceId()),
        blankToNull(request.getCrawlId()));
  }

  /** Runs an identity rule of the core, re-reporting its refusal with the request's field name. */
  static <T> T identity(Supplier<T> rule, String fieldPrefix) {
    try {
      return rule.get();
    } catch (InvalidIdentityException e) {
      throw new PipeDocStoreException.InvalidRequest(fieldPrefix + e.field(), e.rule());
    }
  }

  static void requireNotBlank(String value, String field) {
    if (value == null || value.isBlank()) {
      throw new PipeDocStoreException.InvalidRequest(field, "must not be blank");
    }
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value;
  }
}
