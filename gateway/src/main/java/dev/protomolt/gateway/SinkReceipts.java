package dev.protomolt.gateway;

import dev.protomolt.core.identity.NodeIds;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.events.v1.DocumentIndexedEvent;
import dev.protomolt.proto.module.v1.WorkDispatch;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks a sink's receipts against the work unit they answer and fills what the module left blank.
 * The gateway, not the module, knows which document, graph version, plans and stored state the hop
 * is about, so a receipt cannot claim another; and the fields the ledger requires ({@code plan_id},
 * {@code node_id} as the stored state's UUID) are right even from a module that leaves them out.
 */
final class SinkReceipts {

  private SinkReceipts() {}

  /** The stored state at the hop's own address: where the gateway saves the module's result. */
  static String storedNodeId(WorkDispatch dispatch, PipeStream served) {
    return NodeIds.nodeId(
            docId(served), dispatch.getNodeId(), accountId(served), dispatch.getGraphId())
        .toString();
  }

  /**
   * The receipts as produced: blank graph id, version, node id and (when the node writes exactly
   * one plan) plan id filled from the unit.
   *
   * @throws IllegalArgumentException naming {@code ack.indexing_receipts[i].<field>} and the rule
   */
  static List<DocumentIndexedEvent> checked(
      WorkDispatch dispatch, PipeStream served, List<DocumentIndexedEvent> receipts) {
    String docId = docId(served);
    String stored = storedNodeId(dispatch, served);
    List<String> plans = dispatch.getIndexPlanIdsList();
    List<DocumentIndexedEvent> out = new ArrayList<>();
    for (int i = 0; i < receipts.size(); i++) {
      DocumentIndexedEvent.Builder r = receipts.get(i).toBuilder();
      String field = "ack.indexing_receipts[" + i + "].";
      if (r.getAttemptId().isBlank()) {
        throw new IllegalArgumentException(field + "attempt_id: required (a ULID per attempt)");
      }
      if (!r.getDocId().equals(docId)) {
        throw new IllegalArgumentException(
            field
                + "doc_id: must be '"
                + docId
                + "' (the unit's document), got '"
                + r.getDocId()
                + "'");
      }
      if (r.getAccountId().isBlank()) {
        r.setAccountId(accountId(served));
      }
      r.setGraphId(same(field + "graph_id", r.getGraphId(), dispatch.getGraphId()));
      if (r.getGraphVersion() == 0) {
        r.setGraphVersion(dispatch.getGraphVersion());
      } else if (r.getGraphVersion() != dispatch.getGraphVersion()) {
        throw new IllegalArgumentException(
            field
                + "graph_version: must be "
                + dispatch.getGraphVersion()
                + ", got "
                + r.getGraphVersion());
      }
      r.setNodeId(same(field + "node_id", r.getNodeId(), stored));
      if (r.getPlanId().isBlank()) {
        if (plans.size() != 1) {
          throw new IllegalArgumentException(
              field
                  + "plan_id: required when node '"
                  + dispatch.getNodeId()
                  + "' writes "
                  + (plans.isEmpty() ? "no plan" : "plans " + plans));
        }
        r.setPlanId(plans.getFirst());
      } else if (!plans.contains(r.getPlanId())) {
        throw new IllegalArgumentException(
            field
                + "plan_id: must be one of node '"
                + dispatch.getNodeId()
                + "''s index plans "
                + plans
                + ", got '"
                + r.getPlanId()
                + "'");
      }
      out.add(r.build());
    }
    return out;
  }

  private static String same(String field, String given, String expected) {
    if (given.isBlank()) {
      return expected;
    }
    if (!given.equals(expected)) {
      throw new IllegalArgumentException(
          field + ": must be '" + expected + "' (the work unit's), got '" + given + "'");
    }
    return given;
  }

  private static String docId(PipeStream served) {
    return served.hasDocument()
        ? served.getDocument().getDocId()
        : served.getDocumentRef().getDocId();
  }

  private static String accountId(PipeStream served) {
    if (served.hasDocumentRef() && !served.getDocumentRef().getAccountId().isEmpty()) {
      return served.getDocumentRef().getAccountId();
    }
    String account = served.getMetadata().getAccountId();
    return account.isEmpty() ? served.getDocument().getOwnership().getAccountId() : account;
  }
}
