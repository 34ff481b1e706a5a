package dev.protomolt.localstack.lambda.api;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The functions the local Lambda API lists and invokes. The template deployer registers each
 * {@code AWS::Lambda::Function} with its resolved configuration and an entry point.
 */
public final class FunctionRegistry {

  /** One registered function. */
  public record DeployedFunction(FunctionConfiguration configuration, LambdaEntryPoint entryPoint) {
    public DeployedFunction {
      Objects.requireNonNull(configuration, "configuration");
      Objects.requireNonNull(entryPoint, "entryPoint");
    }
  }

  private final Map<String, DeployedFunction> functions = new ConcurrentHashMap<>();

  /** Registers (or replaces) a function under its name. */
  public void register(FunctionConfiguration configuration, LambdaEntryPoint entryPoint) {
    functions.put(configuration.name(), new DeployedFunction(configuration, entryPoint));
  }

  public void remove(String name) {
    functions.remove(name);
  }

  public Optional<DeployedFunction> find(String name) {
    return Optional.ofNullable(functions.get(name));
  }

  /** Every function, by name, in the order ListFunctions pages them. */
  public List<DeployedFunction> all() {
    return functions.values().stream()
        .sorted(Comparator.comparing(f -> f.configuration().name()))
        .toList();
  }
}
