package dev.protomolt.core.indexing;

import java.util.Locale;

/**
 * Indexing attempt ids are ULIDs: 26 Crockford base-32 characters whose byte order is time order,
 * which is what lets the indexing ledger keep only the newest receipt by comparing strings.
 */
public final class AttemptIds {

  private static final String ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

  private AttemptIds() {}

  /**
   * The canonical (upper-case) form of {@code attemptId}.
   *
   * @throws IllegalArgumentException naming {@code attempt_id} and the rule it breaks
   */
  public static String canonical(String attemptId) {
    if (attemptId == null || attemptId.isBlank()) {
      throw new IllegalArgumentException("attempt_id must not be blank (it orders receipts)");
    }
    String upper = attemptId.toUpperCase(Locale.ROOT);
    if (upper.length() != 26) {
      throw new IllegalArgumentException(
          "attempt_id must be a 26-character ULID but '"
              + attemptId
              + "' has "
              + attemptId.length()
              + " characters");
    }
    for (int i = 0; i < upper.length(); i++) {
      if (ALPHABET.indexOf(upper.charAt(i)) < 0) {
        throw new IllegalArgumentException(
            "attempt_id must be Crockford base-32 but '"
                + attemptId
                + "' has '"
                + attemptId.charAt(i)
                + "' at position "
                + i);
      }
    }
    // 26 base-32 digits hold 130 bits; a ULID is 128, so the first digit is at most 7.
    if (upper.charAt(0) > '7') {
      throw new IllegalArgumentException(
          "attempt_id '" + attemptId + "' overflows 128 bits (its first character must be 0-7)");
    }
    return upper;
  }
}
