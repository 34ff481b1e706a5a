package dev.protomolt.gateway;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Where WorkDispatch records wait for a module. A popped record is held by the gateway until it is
 * either settled (its task token completed, or it was drained by screening) or re-buffered at the
 * head of its queue (the stream serving it died before the ack).
 */
public interface WorkSource {

  /** Pops the next record for a module service without waiting; empty when none is buffered. */
  Optional<PendingWork> poll(String moduleId);

  /**
   * Completes when a record for the module may have arrived since the call. A waiter polls again
   * when it completes; another stream may have taken the record first.
   */
  CompletableFuture<Void> arrival(String moduleId);

  /** Puts a popped, unsettled record back at the head of its queue so it is served next. */
  void rebuffer(PendingWork work);

  /** The record is done with: the source may forget it (and commit past it). */
  void settle(PendingWork work);
}
