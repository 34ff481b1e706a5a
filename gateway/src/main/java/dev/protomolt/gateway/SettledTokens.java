package dev.protomolt.gateway;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Task tokens this gateway completed recently. A second ack or a redelivered record for one of
 * them is a duplicate and changes nothing; Step Functions remains the authority for tokens that
 * have aged out of this memory (it answers TaskTimedOut / InvalidToken).
 */
final class SettledTokens {

  private final Map<String, Boolean> tokens;

  SettledTokens(int capacity) {
    this.tokens =
        new LinkedHashMap<>(16, 0.75f, false) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > capacity;
          }
        };
  }

  synchronized boolean contains(String token) {
    return tokens.containsKey(token);
  }

  synchronized void add(String token) {
    tokens.put(token, Boolean.TRUE);
  }
}
