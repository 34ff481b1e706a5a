package dev.protomolt.core.store;

/** A create-only write found a different object already at its key; nothing was overwritten. */
public final class ObjectExistsException extends RuntimeException {

  private final transient ObjectAddress address;

  public ObjectExistsException(ObjectAddress address, Throwable cause) {
    super("a different object is already at " + address + "; it was not overwritten", cause);
    this.address = address;
  }

  public ObjectAddress address() {
    return address;
  }
}
