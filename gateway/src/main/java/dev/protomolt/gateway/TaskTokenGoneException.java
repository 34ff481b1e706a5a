package dev.protomolt.gateway;

/**
 * Step Functions no longer accepts the task token: it timed out, was already completed, or its
 * execution ended. An ack for such a token changes nothing.
 */
public final class TaskTokenGoneException extends RuntimeException {

  public TaskTokenGoneException(String detail, Throwable cause) {
    super(detail, cause);
  }
}
