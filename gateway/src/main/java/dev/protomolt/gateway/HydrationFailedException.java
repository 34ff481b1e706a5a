package dev.protomolt.gateway;

/**
 * The dispatch's document could not be put in front of a module. {@code permanent} is true when
 * the stored copy is gone or unreadable (the hop is rejected), false when the store was merely
 * unreachable (the hop is retried).
 */
public final class HydrationFailedException extends RuntimeException {

  private final boolean permanent;

  public HydrationFailedException(String detail, boolean permanent, Throwable cause) {
    super(detail, cause);
    this.permanent = permanent;
  }

  public boolean permanent() {
    return permanent;
  }
}
