package dev.protomolt.module.sdk;

import dev.protomolt.proto.module.v1.RejectReason;

/**
 * Thrown from deep inside a processor when the input can never succeed (a corrupt PDF, a bad
 * config value), so the author need not thread a {@link ModuleOutcome.Reject} back by hand.
 */
public final class DocumentRejectedException extends Exception {

  private final transient ModuleOutcome.Reject outcome;

  public DocumentRejectedException(RejectReason reason, String detail) {
    this(reason, detail, null);
  }

  public DocumentRejectedException(RejectReason reason, String detail, Throwable cause) {
    super(detail, cause);
    this.outcome = new ModuleOutcome.Reject(reason, detail);
  }

  public ModuleOutcome.Reject outcome() {
    return outcome;
  }
}
