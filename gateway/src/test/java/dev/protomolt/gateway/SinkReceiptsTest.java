package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.identity.NodeIds;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.StreamMetadata;
import dev.protomolt.proto.events.v1.DocumentIndexedEvent;
import dev.protomolt.proto.module.v1.WorkDispatch;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The gateway's check of a sink's receipts against the unit they answer. */
class SinkReceiptsTest {

  private static final PipeStream SERVED =
      PipeStream.newBuilder()
          .setMetadata(StreamMetadata.newBuilder().setAccountId("acme"))
          .setDocumentRef(
              DocumentReference.newBuilder()
                  .setDocId("doc-1")
                  .setAccountId("acme")
                  .setGraphId("g")
                  .setGraphAddressId("index"))
          .build();

  private static WorkDispatch dispatch(String... plans) {
    return WorkDispatch.newBuilder()
        .setNodeId("index")
        .setGraphId("g")
        .setGraphVersion(4)
        .addAllIndexPlanIds(List.of(plans))
        .build();
  }

  private static DocumentIndexedEvent.Builder receipt() {
    return DocumentIndexedEvent.newBuilder()
        .setAttemptId("01J0000000000000000000000A")
        .setDocId("doc-1");
  }

  @Test
  void blankFieldsAreFilledFromTheUnit() {
    DocumentIndexedEvent r =
        SinkReceipts.checked(dispatch("plan-1"), SERVED, List.of(receipt().build())).getFirst();

    assertThat(r.getPlanId()).isEqualTo("plan-1");
    assertThat(r.getNodeId()).isEqualTo(NodeIds.nodeId("doc-1", "index", "acme", "g").toString());
    assertThat(r.getGraphId()).isEqualTo("g");
    assertThat(r.getGraphVersion()).isEqualTo(4);
    assertThat(r.getAccountId()).isEqualTo("acme");
  }

  @Test
  void aReceiptForAnotherDocumentPlanOrStateIsRefusedNamingTheField() {
    assertThatThrownBy(
            () ->
                SinkReceipts.checked(
                    dispatch("plan-1"), SERVED, List.of(receipt().setDocId("doc-2").build())))
        .hasMessageStartingWith("ack.indexing_receipts[0].doc_id: must be 'doc-1'");
    assertThatThrownBy(
            () ->
                SinkReceipts.checked(
                    dispatch("plan-1"), SERVED, List.of(receipt().setPlanId("plan-9").build())))
        .hasMessageContaining("ack.indexing_receipts[0].plan_id: must be one of node 'index'");
    assertThatThrownBy(
            () ->
                SinkReceipts.checked(
                    dispatch("plan-1"), SERVED, List.of(receipt().setNodeId("index").build())))
        .hasMessageContaining("ack.indexing_receipts[0].node_id: must be '");
    assertThatThrownBy(
            () ->
                SinkReceipts.checked(
                    dispatch("plan-1", "plan-2"), SERVED, List.of(receipt().build())))
        .hasMessageContaining("plan_id: required when node 'index' writes plans [plan-1, plan-2]");
    assertThatThrownBy(
            () ->
                SinkReceipts.checked(
                    dispatch("plan-1"), SERVED, List.of(receipt().setAttemptId("").build())))
        .hasMessageContaining("ack.indexing_receipts[0].attempt_id: required");
    assertThatThrownBy(
            () ->
                SinkReceipts.checked(
                    dispatch("plan-1"), SERVED, List.of(receipt().setGraphVersion(9).build())))
        .hasMessageContaining("graph_version: must be 4, got 9");
  }
}
