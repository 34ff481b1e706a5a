package dev.protomolt.repository;

import dev.protomolt.proto.data.v1.PipeDocPart;

/**
 * Every way a document-store call is refused, each a type a door maps to its own status (gRPC,
 * Lambda error types) without parsing messages.
 */
public sealed class PipeDocStoreException extends RuntimeException {

  PipeDocStoreException(String message, Throwable cause) {
    super(message, cause);
  }

  /** A request field is blank, malformed or disagrees with another field. */
  public static final class InvalidRequest extends PipeDocStoreException {
    private final String field;

    public InvalidRequest(String field, String rule) {
      super(field + ": " + rule, null);
      this.field = field;
    }

    /** The offending field as spelled on the wire, e.g. {@code document_ref.graph_id}. */
    public String field() {
      return field;
    }
  }

  /**
   * A partial save's copy source no longer holds a part it must carry forward: the source row is
   * gone or tombstoned, an object is missing, or a PRESENT entry has no key. The caller's remedy is
   * to retry as a full save.
   */
  public static final class CopySourceGone extends PipeDocStoreException {
    public CopySourceGone(String detail, Throwable cause) {
      super("copy_unwritten_parts_from: " + detail + "; retry as a full save", cause);
    }
  }

  /** The account has no drives; there is no fallback bucket to write to instead. */
  public static final class AccountNotProvisioned extends PipeDocStoreException {
    public AccountNotProvisioned(String accountId, String driveName) {
      super(
          "account_id: account "
              + accountId
              + " is not provisioned (no drive "
              + driveName
              + "); documents are never written to a fallback bucket",
          null);
    }
  }

  /** The account exists but may not store documents now. */
  public static final class AccountInactive extends PipeDocStoreException {
    public AccountInactive(String accountId) {
      super("account_id: account " + accountId + " is not active", null);
    }
  }

  /** No live stored state at the requested identity. */
  public static final class DocumentNotFound extends PipeDocStoreException {
    public DocumentNotFound(String what) {
      super("no stored document " + what, null);
    }
  }

  /** The ledger lists a part whose object is missing or whose bytes do not match the manifest. */
  public static final class PartUnreadable extends PipeDocStoreException {
    private final PipeDocPart part;
    private final String subKey;

    public PartUnreadable(PipeDocPart part, String subKey, String detail, Throwable cause) {
      super(
          "part "
              + part.name().replace("PIPE_DOC_PART_", "")
              + (subKey.isEmpty() ? "" : " chunk set '" + subKey + "'")
              + ": "
              + detail,
          cause);
      this.part = part;
      this.subKey = subKey;
    }

    public PipeDocPart part() {
      return part;
    }

    public String subKey() {
      return subKey;
    }
  }
}
