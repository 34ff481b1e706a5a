package dev.protomolt.core.store;

import java.time.Instant;
import java.util.Objects;

/** One object as a bucket listing shows it: its full key and when it was last written. */
public record StoredObject(String key, Instant lastModified) {

  public StoredObject {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(lastModified, "lastModified");
  }
}
