package dev.protomolt.core.store;

/** The object an operation needed is not in its bucket. */
public final class ObjectMissingException extends RuntimeException {

  private final transient ObjectAddress address;

  public ObjectMissingException(ObjectAddress address, Throwable cause) {
    super("no object at " + address, cause);
    this.address = address;
  }

  public ObjectAddress address() {
    return address;
  }
}
