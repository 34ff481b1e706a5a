package dev.protomolt.module.sdk;

import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.module.v1.NoOpReason;
import dev.protomolt.proto.module.v1.RejectReason;
import dev.protomolt.proto.module.v1.RetryReason;
import java.util.Objects;

/**
 * What a {@link DocumentProcessor} decided about one document. The four cases are the four branches
 * of {@code WorkAck.result}; there is deliberately no way to say "drop it silently": a module that
 * wants a document to stop must {@link Reject} it, which is recorded and terminal.
 */
public sealed interface ModuleOutcome {

  /** CONTINUE with the processed document. */
  record Updated(PipeDoc document) implements ModuleOutcome {
    public Updated {
      Objects.requireNonNull(document, "Updated.document must not be null");
    }
  }

  /** CONTINUE with the document unchanged. */
  record NoOp(NoOpReason reason, String detail) implements ModuleOutcome {
    public NoOp {
      reason = requireChosen(reason, NoOpReason.NO_OP_REASON_UNSPECIFIED, "NoOp.reason");
      detail = detail == null ? "" : detail;
    }
  }

  /** REJECT: terminal and recorded; the detail should name what was wrong with the input. */
  record Reject(RejectReason reason, String detail) implements ModuleOutcome {
    public Reject {
      reason = requireChosen(reason, RejectReason.REJECT_REASON_UNSPECIFIED, "Reject.reason");
      detail = detail == null ? "" : detail;
    }
  }

  /** RETRY: the hop is retried with backoff under the same work unit id. */
  record RetryableFailure(RetryReason reason, String detail, long retryAfterMs)
      implements ModuleOutcome {
    public RetryableFailure {
      Objects.requireNonNull(reason, "RetryableFailure.reason must not be null");
      if (reason == RetryReason.UNRECOGNIZED) {
        throw new IllegalArgumentException("RetryableFailure.reason must be a known RetryReason");
      }
      if (retryAfterMs < 0) {
        throw new IllegalArgumentException(
            "RetryableFailure.retryAfterMs must be >= 0, got " + retryAfterMs);
      }
      detail = detail == null ? "" : detail;
    }
  }

  static ModuleOutcome updated(PipeDoc document) {
    return new Updated(document);
  }

  static ModuleOutcome noOp(NoOpReason reason, String detail) {
    return new NoOp(reason, detail);
  }

  static ModuleOutcome reject(RejectReason reason, String detail) {
    return new Reject(reason, detail);
  }

  static ModuleOutcome retry(RetryReason reason, String detail) {
    return new RetryableFailure(reason, detail, 0);
  }

  private static <E extends Enum<E>> E requireChosen(E value, E unspecified, String field) {
    Objects.requireNonNull(value, field + " must not be null");
    // An unspecified reason on the wire reads as "the module did not say"; make the author say.
    if (value == unspecified || "UNRECOGNIZED".equals(value.name())) {
      throw new IllegalArgumentException(field + " must be a specific reason, got " + value);
    }
    return value;
  }
}
