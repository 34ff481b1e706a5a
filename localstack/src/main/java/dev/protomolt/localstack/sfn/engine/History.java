package dev.protomolt.localstack.sfn.engine;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.protomolt.localstack.sfn.Clock;
import dev.protomolt.localstack.sfn.asl.Json;
import dev.protomolt.localstack.sfn.store.ExecutionStore;

/**
 * Appends an execution's history events in order. Ids are consecutive; each event's previous
 * event is the one recorded before it (AWS links parallel Map iterations more finely; callers of
 * GetExecutionHistory here only rely on order and types).
 */
final class History {

  private final ExecutionStore store;
  private final Clock clock;
  private final String executionArn;
  private long lastId;

  History(ExecutionStore store, Clock clock, String executionArn, long lastId) {
    this.store = store;
    this.clock = clock;
    this.executionArn = executionArn;
    this.lastId = lastId;
  }

  /** Records an event whose details object is {@code details} under {@code detailsField}. */
  synchronized void record(String type, String detailsField, ObjectNode details) {
    long id = ++lastId;
    String text = null;
    if (detailsField != null) {
      ObjectNode wrapper = Json.object();
      wrapper.set(detailsField, details);
      text = Json.print(wrapper);
    }
    store.appendHistory(executionArn,
        new ExecutionStore.HistoryEvent(id, id - 1, type, clock.now(), text));
  }
}
