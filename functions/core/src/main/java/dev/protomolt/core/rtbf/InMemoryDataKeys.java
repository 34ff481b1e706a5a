package dev.protomolt.core.rtbf;

import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Data keys held in this process: for tests and the pure logic's own checks. */
public final class InMemoryDataKeys implements DataKeys {

  private final Map<String, byte[]> keys = new ConcurrentHashMap<>();
  private final SecureRandom random = new SecureRandom();

  @Override
  public byte[] create(String keyId) {
    return keys.computeIfAbsent(
            keyId,
            id -> {
              byte[] key = new byte[KEY_BYTES];
              random.nextBytes(key);
              return key;
            })
        .clone();
  }

  @Override
  public byte[] open(String keyId) {
    byte[] key = keys.get(keyId);
    if (key == null) {
      throw new DataKeyGoneException(keyId);
    }
    return key.clone();
  }

  @Override
  public void destroy(String keyId) {
    keys.remove(keyId);
  }
}
