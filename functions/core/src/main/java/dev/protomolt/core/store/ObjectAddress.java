package dev.protomolt.core.store;

import java.util.Objects;

/** One object: the drive (bucket and credentials) and its full key, prefix included. */
public record ObjectAddress(Drive drive, String key) {

  public ObjectAddress {
    Objects.requireNonNull(drive, "drive");
    if (key == null || key.isBlank()) {
      throw new IllegalArgumentException("object key must not be blank");
    }
  }

  @Override
  public String toString() {
    return "s3://" + drive.bucket() + "/" + key + " (drive " + drive.name() + ")";
  }
}
