package dev.protomolt.core.rtbf;

/**
 * A sealed body's data key no longer exists: its document's walk ended and the key was destroyed
 * (or it was never created), so the ciphertext cannot be opened. Not retryable.
 */
public final class DataKeyGoneException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public DataKeyGoneException(String keyId) {
    super(
        "data key '"
            + keyId
            + "' does not exist: the right-to-be-forgotten document it sealed has ended and its"
            + " key was destroyed, so its ciphertext can no longer be read");
  }
}
