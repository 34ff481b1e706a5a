package dev.protomolt.core.rtbf;

/**
 * Per-document data keys for right-to-be-forgotten documents (decision 1750): a key is created for
 * one document, opened by every reader of its sealed body, and destroyed when the document's walk
 * ends, after which its ciphertext can never be read again. In AWS a KMS data key whose wrapped
 * form is kept by key id; locally the same adapter against the local cloud's KMS.
 */
public interface DataKeys {

  /** AES-256: the only key length the seal uses. */
  int KEY_BYTES = 32;

  /**
   * The key named {@code keyId}: created now, or the one already created under that name, so a
   * redelivered intake seals under the key its execution already has.
   *
   * @return the key's 32 bytes, to be used in memory only
   */
  byte[] create(String keyId);

  /**
   * The key's 32 bytes.
   *
   * @throws DataKeyGoneException when the key was destroyed or never created
   */
  byte[] open(String keyId);

  /** Destroys the key; destroying one already gone does nothing. */
  void destroy(String keyId);

  /**
   * Keys for a process given no key store: every call fails with {@code why}, so a
   * right-to-be-forgotten document is refused rather than carried in plaintext.
   */
  static DataKeys unconfigured(String why) {
    return new DataKeys() {
      @Override
      public byte[] create(String keyId) {
        throw new IllegalStateException(why);
      }

      @Override
      public byte[] open(String keyId) {
        throw new IllegalStateException(why);
      }

      @Override
      public void destroy(String keyId) {
        throw new IllegalStateException(why);
      }
    };
  }
}
