package dev.protomolt.gateway;

import dev.protomolt.proto.module.v1.LogText;
import dev.protomolt.proto.module.v1.WorkAck;
import dev.protomolt.proto.module.v1.WorkDispatch;

/**
 * Where the gateway keeps a module's log lines ({@code WorkAck.log_lines}) once the ack has
 * settled its work unit. Keeping them is best effort: an implementation never throws and never
 * holds the unit, because losing a log must not cost a document.
 */
public interface WorkUnitLogs {

  /** Keeps nothing: for gateways built without a log store. */
  WorkUnitLogs NONE = (dispatch, ack, instanceId) -> {};

  /** Keeps {@code ack}'s log lines (or the rest of its streamed log) for the unit of {@code dispatch}. */
  void record(WorkDispatch dispatch, WorkAck ack, String instanceId);

  /**
   * Where the attempt of {@code dispatch} about to be served starts in its unit's log: the module
   * streams its text with offsets from here. 0 for a unit that has logged nothing, or when the log
   * cannot be read (the module's text is then refused as a conflict or gap, never misplaced).
   */
  default long logOffset(WorkDispatch dispatch) {
    return 0;
  }

  /** Appends a piece of the module's log that arrived with a heartbeat, while it works. */
  default void stream(WorkDispatch dispatch, LogText text) {}
}
