package dev.protomolt.core.parts;

/** Why a part was deliberately deleted; the wire spelling is what {@code deleted_reason} stores. */
public enum DeletedReason {
  /** Settled after successful indexing: the source blob is no longer needed. */
  POST_PARSE_POLICY,
  /** A right-to-be-forgotten request. */
  RTBF;

  /** The value stored in {@code PartManifestEntry.deleted_reason}. */
  public String wireValue() {
    return name();
  }
}
