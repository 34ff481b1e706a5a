package dev.protomolt.statemachines;

import java.util.List;

/**
 * The compiler's output for one graph version.
 *
 * @param definition the ASL JSON, with {@code ${...}} definition substitutions left in place
 * @param worstPath the node ids of the document path with the largest history estimate
 * @param worstPathEvents that path's worst-case history events in one execution
 */
public record CompiledStateMachine(String definition, List<String> worstPath, long worstPathEvents) {}
