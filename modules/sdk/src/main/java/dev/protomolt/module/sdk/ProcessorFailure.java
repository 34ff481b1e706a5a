package dev.protomolt.module.sdk;

import dev.protomolt.proto.module.v1.RetryReason;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeoutException;

/**
 * Turns whatever a processor threw into a typed outcome. Only {@link DocumentRejectedException} is
 * terminal: every other throwable is retryable, because the retry budget of the Work state bounds
 * it and a hop that exhausts it lands in the DLQ with replay coordinates, where a bug fixed later
 * can be replayed. A Reject would record the document as finished instead (decision 0601).
 */
public final class ProcessorFailure {

  private ProcessorFailure() {}

  public static ModuleOutcome outcomeOf(Throwable thrown) {
    return switch (thrown) {
      case DocumentRejectedException rejected -> rejected.outcome();
      case TimeoutException t -> retry(RetryReason.RETRY_REASON_TIMEOUT, t);
      case InterruptedException t -> retry(RetryReason.RETRY_REASON_TIMEOUT, t);
      case IOException t -> retry(RetryReason.RETRY_REASON_TRANSIENT_DEPENDENCY, t);
      case UncheckedIOException t -> retry(RetryReason.RETRY_REASON_TRANSIENT_DEPENDENCY, t);
      case VirtualMachineError t -> retry(RetryReason.RETRY_REASON_RESOURCE_EXHAUSTED, t);
      default -> retry(RetryReason.RETRY_REASON_UNSPECIFIED, thrown);
    };
  }

  private static ModuleOutcome retry(RetryReason reason, Throwable thrown) {
    return new ModuleOutcome.RetryableFailure(reason, describe(thrown), 0);
  }

  /** Class and message of the throwable and of each cause, so the DLQ record says what broke. */
  static String describe(Throwable thrown) {
    StringBuilder text = new StringBuilder("processor threw ");
    Throwable current = thrown;
    for (int depth = 0; current != null && depth < 4; depth++, current = current.getCause()) {
      if (depth > 0) {
        text.append("; caused by ");
      }
      text.append(current.getClass().getName());
      if (current.getMessage() != null) {
        text.append(": ").append(current.getMessage());
      }
    }
    return text.toString();
  }
}
