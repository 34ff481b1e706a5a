package dev.protomolt.gateway;

/**
 * A module's result cannot be handed to Step Functions: the task output would pass the state limit
 * and the result may not be stored to go by reference instead. Permanent: serving the unit again
 * would meet the same answer, so the gateway fails the hop with {@code
 * Gateway.TaskOutputTooLarge} rather than re-buffer it (decision 1656).
 */
public final class TaskOutputTooLargeException extends RuntimeException {

  private final long outputBytes;
  private final long limitBytes;

  public TaskOutputTooLargeException(String detail, long outputBytes, long limitBytes) {
    super(detail);
    this.outputBytes = outputBytes;
    this.limitBytes = limitBytes;
  }

  /** The output's size in UTF-8 bytes, or -1 when Step Functions refused it without saying. */
  public long outputBytes() {
    return outputBytes;
  }

  public long limitBytes() {
    return limitBytes;
  }
}
