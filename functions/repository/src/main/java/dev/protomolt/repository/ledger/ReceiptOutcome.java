package dev.protomolt.repository.ledger;

/**
 * What the indexing ledger did with one receipt of a batch.
 *
 * @param index the receipt's position in the batch
 * @param detail for REJECTED, the field and the rule; otherwise a short note
 */
public record ReceiptOutcome(int index, Kind kind, String detail) {

  /** The three things that can happen to a receipt. */
  public enum Kind {
    /** The receipt was newer than the row's last attempt and moved it forward. */
    APPLIED,
    /** An older or duplicate attempt: nothing changed. */
    STALE,
    /** The receipt could not be read; nothing changed and the rest of the batch went on. */
    REJECTED
  }
}
