package dev.protomolt.repository.reconcile;

import java.time.Duration;
import java.util.Objects;

/**
 * How the reconciler runs. The defaults are the safe ones: report only, and never consider an
 * object younger than an hour (a save writes its objects before its ledger row, so a young
 * unlisted object is most likely a save in flight).
 *
 * @param deleteOrphans false (the default) reports orphans without deleting any
 * @param minimumAge objects younger than this are never orphans; at least {@link #MINIMUM_AGE}
 * @param sampleSize how many orphan keys a report lists
 */
public record ReconcilerSettings(boolean deleteOrphans, Duration minimumAge, int sampleSize) {

  public static final Duration MINIMUM_AGE = Duration.ofHours(1);
  public static final int DEFAULT_SAMPLE = 50;

  public ReconcilerSettings {
    Objects.requireNonNull(minimumAge, "minimumAge");
    if (minimumAge.compareTo(MINIMUM_AGE) < 0) {
      throw new IllegalArgumentException(
          "reconciler minimum_age must be at least "
              + MINIMUM_AGE
              + " (a younger unlisted object may belong to a save in flight) but was "
              + minimumAge);
    }
    if (sampleSize < 1 || sampleSize > 1000) {
      throw new IllegalArgumentException(
          "reconciler sample_size must be between 1 and 1000 but was " + sampleSize);
    }
  }

  /** Report only, one hour, 50 sample keys. */
  public static ReconcilerSettings dryRun() {
    return new ReconcilerSettings(false, MINIMUM_AGE, DEFAULT_SAMPLE);
  }

  /** The same settings, deleting the orphans they find. */
  public ReconcilerSettings deleting() {
    return new ReconcilerSettings(true, minimumAge, sampleSize);
  }
}
