package dev.protomolt.core.cel;

import dev.protomolt.proto.config.v1.PipelineGraph;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every expression of one graph version, compiled once when the version is loaded. Lookups on the
 * hot path are map reads; nothing here parses or plans after construction.
 */
public final class GraphExpressions {

  private final Map<String, CompiledExpression> byKey;

  private GraphExpressions(Map<String, CompiledExpression> byKey) {
    this.byKey = Map.copyOf(byKey);
  }

  /**
   * Compiles all of the graph's expressions. If any fails, all failures are reported together in
   * one {@link GraphExpressionsException}; a version never loads half-compiled.
   */
  public static GraphExpressions compile(PipelineGraph graph, PipelineCelEnvironment env) {
    Map<String, CompiledExpression> compiled = new HashMap<>();
    List<CelCompilationException> failures = new ArrayList<>();
    for (ExpressionSite site : ExpressionSite.of(graph)) {
      try {
        compiled.put(site.key(), env.compile(site.key(), site.expression(), site.shape()));
      } catch (CelCompilationException e) {
        failures.add(e);
      }
    }
    if (!failures.isEmpty()) {
      throw new GraphExpressionsException(graph.getGraphId(), graph.getVersion(), failures);
    }
    return new GraphExpressions(compiled);
  }

  public Optional<CompiledExpression> find(String key) {
    return Optional.ofNullable(byKey.get(key));
  }

  public int size() {
    return byKey.size();
  }

  /** Thrown when a version holds expressions that do not compile. */
  public static final class GraphExpressionsException extends RuntimeException {
    private final List<CelCompilationException> failures;

    GraphExpressionsException(
        String graphId, long version, List<CelCompilationException> failures) {
      super(
          "graph "
              + graphId
              + " version "
              + version
              + " has "
              + failures.size()
              + " CEL expression(s) that do not compile: "
              + String.join(" | ", failures.stream().map(Throwable::getMessage).toList()));
      this.failures = List.copyOf(failures);
    }

    public List<CelCompilationException> failures() {
      return failures;
    }
  }
}
