package dev.protomolt.gateway.access;

import io.grpc.Status;

/** A caller whose identity could not be established: the status the call is closed with. */
public final class CallerRefusedException extends Exception {
  private static final long serialVersionUID = 1L;

  private final transient Status status;

  public CallerRefusedException(Status status) {
    super(status.getDescription(), status.getCause());
    this.status = status;
  }

  public Status status() {
    return status;
  }
}
