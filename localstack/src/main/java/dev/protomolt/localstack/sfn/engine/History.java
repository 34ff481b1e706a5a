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

  /** Once the terminal event is written, a thread still unwinding records nothing more. */
  private boolean closed;

  History(ExecutionStore store, Clock clock, String executionArn, long lastId) {
    this.store = store;
    this.clock = clock;
    this.executionArn = executionArn;
    this.lastId = lastId;
  }

  /** Records an event whose details object is {@code details} under {@code detailsField}. */
  synchronized void record(String type, String detailsField, ObjectNode details) {
    if (closed) {
      return;
    }
    long id = ++lastId;
    store.appendHistory(executionArn, event(id, type, detailsField, details));
  }

  /**
   * Closes the execution with {@code status} and records its terminal event atomically.
   *
   * @return false when the execution had already closed (nothing is recorded)
   */
  synchronized boolean close(
      String status,
      String output,
      String error,
      String cause,
      String type,
      String detailsField,
      ObjectNode details) {
    ExecutionStore.HistoryEvent event = event(lastId + 1, type, detailsField, details);
    if (closed
        || !store.closeWithEvent(executionArn, status, output, error, cause, event.at(), event)) {
      closed = true;
      return false;
    }
    lastId++;
    closed = true;
    return true;
  }

  private ExecutionStore.HistoryEvent event(
      long id, String type, String detailsField, ObjectNode details) {
    String text = null;
    if (detailsField != null) {
      ObjectNode wrapper = Json.object();
      wrapper.set(detailsField, details);
      text = Json.print(wrapper);
    }
    return new ExecutionStore.HistoryEvent(id, id - 1, type, clock.now(), text);
  }
}
