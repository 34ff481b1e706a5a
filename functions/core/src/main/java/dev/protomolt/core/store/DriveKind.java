package dev.protomolt.core.store;

import dev.protomolt.core.identity.RowKind;
import java.util.Locale;

/** Every account has exactly one drive of each kind. */
public enum DriveKind {
  /** Where intake copies land; may be a bucket the customer owns. */
  INTAKE,
  /** Where pipeline copies are staged between hops. */
  PIPELINE;

  /** Intake rows live on the intake drive, pipeline rows on the pipeline drive. */
  public static DriveKind of(RowKind rowKind) {
    return switch (rowKind) {
      case INTAKE -> INTAKE;
      case PIPELINE -> PIPELINE;
    };
  }

  /** The drive's derived name, {@code <accountId>:intake} or {@code <accountId>:pipeline}. */
  public String driveName(String accountId) {
    return accountId + ":" + name().toLowerCase(Locale.ROOT);
  }
}
