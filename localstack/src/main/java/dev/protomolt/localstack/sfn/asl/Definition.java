package dev.protomolt.localstack.sfn.asl;

import java.util.Map;

/**
 * A parsed state machine (or a Map's item processor): where to start and the states by name.
 *
 * @param timeoutSeconds the top-level TimeoutSeconds, null when absent (never for item processors)
 */
public record Definition(String startAt, Map<String, State> states, Integer timeoutSeconds) {

  public Definition {
    states = Map.copyOf(states);
  }

  public State state(String name) {
    State state = states.get(name);
    if (state == null) {
      throw new IllegalStateException("validated definitions name only existing states: " + name);
    }
    return state;
  }
}
