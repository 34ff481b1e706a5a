package dev.protomolt.lambda.wiring;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * A value built on first use and kept for the container's life: clients are built once per
 * container, never per invocation, and only by the functions that use them.
 */
final class Once<T> implements Supplier<T> {

  private final Supplier<T> build;
  private volatile T value;

  Once(Supplier<T> build) {
    this.build = Objects.requireNonNull(build, "build");
  }

  @Override
  public T get() {
    T v = value;
    if (v == null) {
      synchronized (this) {
        v = value;
        if (v == null) {
          v = Objects.requireNonNull(build.get(), "a client builder returned null");
          value = v;
        }
      }
    }
    return v;
  }

  /** The value if it was built, else null: closing must not build what was never used. */
  T built() {
    return value;
  }
}
