package dev.protomolt.localstack.sfn;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** Lambda functions for tests: each a Java function of the JSON payload. */
final class ScriptedLambdas implements LambdaInvoker {

  @FunctionalInterface
  interface Function {
    String apply(String payload) throws FunctionError;
  }

  record Invocation(String functionName, String payload) {}

  private final Map<String, Function> functions = new ConcurrentHashMap<>();
  final List<Invocation> invocations = new CopyOnWriteArrayList<>();
  final AtomicInteger inFlight = new AtomicInteger();
  final AtomicInteger maxInFlight = new AtomicInteger();

  void register(String name, Function function) {
    functions.put(name, function);
  }

  List<Invocation> invocationsOf(String name) {
    return invocations.stream().filter(i -> i.functionName().equals(name)).toList();
  }

  @Override
  public String invoke(String functionName, String payloadJson) throws FunctionError {
    String name = LambdaInvoker.functionNameOf(functionName);
    invocations.add(new Invocation(name, payloadJson));
    Function function = functions.get(name);
    if (function == null) {
      throw new FunctionError("Lambda.ResourceNotFoundException", "Function not found: " + name);
    }
    int now = inFlight.incrementAndGet();
    maxInFlight.accumulateAndGet(now, Math::max);
    try {
      return function.apply(payloadJson);
    } finally {
      inFlight.decrementAndGet();
    }
  }
}
