package dev.protomolt.engine.graphs;

import dev.protomolt.core.graph.GraphStore;
import dev.protomolt.core.graph.VersionPins;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;
import software.amazon.awssdk.services.sfn.model.ListExecutionsResponse;
import software.amazon.awssdk.services.sfn.model.StateMachineDoesNotExistException;

/**
 * Documents pinned to a graph version are the executions still running on that version's state
 * machine version (every hop and every fan-out child starts on the same version ARN). Counted with
 * ListExecutions; any failure propagates, because answering 0 by mistake would let a delete
 * orphan documents that are still in flight.
 */
public final class StepFunctionsVersionPins implements VersionPins {

  private final SfnClient sfn;
  private final GraphStore store;

  public StepFunctionsVersionPins(SfnClient sfn, GraphStore store) {
    this.sfn = sfn;
    this.store = store;
  }

  @Override
  public long pinnedDocuments(String graphId, long version) {
    String arn =
        store.get(graphId, version).map(GraphStore.StoredGraph::stateMachineVersionArn).orElse("");
    if (arn.isEmpty()) {
      // Never compiled and published: no execution can have started on it.
      return 0;
    }
    long running = 0;
    String token = null;
    try {
      do {
        String page = token;
        ListExecutionsResponse response =
            sfn.listExecutions(
                b ->
                    b.stateMachineArn(arn)
                        .statusFilter(ExecutionStatus.RUNNING)
                        .maxResults(1000)
                        .nextToken(page));
        running += response.executions().size();
        token = response.nextToken();
      } while (token != null);
    } catch (StateMachineDoesNotExistException gone) {
      // The state machine itself was deleted, and with it every execution that could run on it.
      return 0;
    }
    return running;
  }
}
