package dev.protomolt.gateway;

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

  /** Keeps {@code ack}'s log lines for the work unit of {@code dispatch}. */
  void record(WorkDispatch dispatch, WorkAck ack, String instanceId);
}
