package dev.protomolt.core.graph;

/** A graph lifecycle request that cannot be done, with the reason a door maps to its status. */
public final class GraphAdminException extends RuntimeException {

  /** Mirrors the gRPC codes a caller can act on. */
  public enum Reason {
    INVALID_ARGUMENT,
    NOT_FOUND,
    FAILED_PRECONDITION,
    ABORTED,
    UNAVAILABLE
  }

  private final Reason reason;

  public GraphAdminException(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  public GraphAdminException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }
}
