package dev.protomolt.core.parts;

import dev.protomolt.proto.data.v1.PipeDocPart;

/**
 * A part object's bytes cannot be assembled: missing, truncated, corrupt, or carrying fields that do
 * not belong to its part. Assembly refuses rather than return a silently wrong document; the message
 * names the part, the chunk set (for CHUNKS), the object key and the rule broken.
 */
public final class FragmentRejectedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Why the fragment was refused. */
  public enum Reason {
    /** No bytes were supplied for a PRESENT entry. */
    MISSING,
    /** The bytes' size or SHA-256 differs from the manifest entry (truncated or corrupt). */
    DIGEST_MISMATCH,
    /** The bytes are not a parseable PipeDoc. */
    UNPARSEABLE,
    /** The PipeDoc carries fields of another part, or another document's id. */
    WRONG_CONTENT,
    /** The manifest entry itself cannot be assembled (e.g. unspecified part or state). */
    BAD_ENTRY
  }

  private final PipeDocPart part;
  private final String subKey;
  private final String objectKey;
  private final Reason reason;

  FragmentRejectedException(
      PipeDocPart part,
      String subKey,
      String objectKey,
      Reason reason,
      String rule,
      Throwable cause) {
    super(describe(part, subKey, objectKey) + ": " + rule, cause);
    this.part = part;
    this.subKey = subKey;
    this.objectKey = objectKey;
    this.reason = reason;
  }

  private static String describe(PipeDocPart part, String subKey, String objectKey) {
    String name = "part " + PartNames.shortName(part);
    if (subKey != null && !subKey.isEmpty()) {
      name += " chunk set \"" + subKey + "\"";
    }
    if (objectKey != null && !objectKey.isEmpty()) {
      name += " (object " + objectKey + ")";
    }
    return name;
  }

  public PipeDocPart part() {
    return part;
  }

  public String subKey() {
    return subKey;
  }

  public String objectKey() {
    return objectKey;
  }

  public Reason reason() {
    return reason;
  }
}
