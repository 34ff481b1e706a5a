package dev.protomolt.core.doclog;

/**
 * A document-log call the log refused without changing anything: the caller's text is not lost,
 * it was never taken. {@link #reason()} says which rule, {@link #field()} which argument broke it.
 */
public final class DocumentLogRefusal extends RuntimeException {

  public enum Reason {
    /** No log is open under the key. */
    NOT_OPEN,
    /** The log was opened before with other windows; windows are fixed at open. */
    WINDOWS_DIFFER,
    /** The append's offset is past the end of the log; taking it would leave a hole. */
    GAP,
    /** A redelivered append's text differs from the text the log already holds there. */
    CONFLICT,
    /** The log is sealed and the append would add text. */
    SEALED,
    /** Other writers kept moving the log; the call may be retried as it is. */
    CONTENDED
  }

  private final Reason reason;
  private final String field;

  DocumentLogRefusal(Reason reason, String field, String message) {
    super(field + ": " + message);
    this.reason = reason;
    this.field = field;
  }

  public Reason reason() {
    return reason;
  }

  public String field() {
    return field;
  }
}
