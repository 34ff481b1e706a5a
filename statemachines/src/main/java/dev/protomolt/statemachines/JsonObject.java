package dev.protomolt.statemachines;

import java.util.LinkedHashMap;

/**
 * An insertion-ordered JSON object with a chaining {@link #with} so state definitions read in the
 * same order they are written out. Key order is part of the compiler's byte-identical promise.
 */
final class JsonObject extends LinkedHashMap<String, Object> {

  static JsonObject of() {
    return new JsonObject();
  }

  JsonObject with(String key, Object value) {
    if (containsKey(key)) {
      throw new IllegalStateException("JSON key written twice: " + key);
    }
    put(key, value);
    return this;
  }
}
