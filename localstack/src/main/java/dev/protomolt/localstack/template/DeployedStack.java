package dev.protomolt.localstack.template;

import dev.protomolt.localstack.lambda.LambdaResult;
import dev.protomolt.localstack.lambda.LocalLambdaRunner;
import dev.protomolt.localstack.schedule.LocalScheduler;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * A template deployed on the local cloud: the registry of its functions (what the local Lambda API
 * and the policy checks read), its schedules (triggerable on demand) and its running tasks. Closing
 * it stops what the deployment started, newest first; the local cloud itself stays up.
 */
public final class DeployedStack implements AutoCloseable {

  private final TemplatePlan plan;
  private final LocalLambdaRunner lambdas;
  private final LocalScheduler scheduler;
  private final Deque<AutoCloseable> started;
  private final List<TlsListener> listeners;

  /**
   * A TLS listener as deployed: the loopback port its front listens on, the port it forwards to
   * (the task's), and the CA file a client trusts to reach it.
   */
  public record TlsListener(String logicalId, int port, int targetPort, Path caFile) {}

  DeployedStack(
      TemplatePlan plan,
      LocalLambdaRunner lambdas,
      LocalScheduler scheduler,
      Deque<AutoCloseable> started,
      List<TlsListener> listeners) {
    this.plan = plan;
    this.lambdas = lambdas;
    this.scheduler = scheduler;
    this.started = new ArrayDeque<>(started);
    this.listeners = List.copyOf(listeners);
  }

  /** Every TLS listener's front, in template order. */
  public List<TlsListener> tlsListeners() {
    return listeners;
  }

  /**
   * The stack's one TLS listener (the gateway's load balancer): where clients dial with {@code
   * PROTOMOLT_GATEWAY=127.0.0.1:<port>} and {@code PROTOMOLT_GATEWAY_CA=<caFile>}.
   */
  public Optional<TlsListener> tlsListener() {
    return listeners.stream().findFirst();
  }

  public TemplatePlan plan() {
    return plan;
  }

  /** Every deployed function, in template order. */
  public List<DeployedFunction> functions() {
    return plan.functions();
  }

  /** The function a name, a function ARN or an alias or version ARN names. */
  public Optional<DeployedFunction> function(String nameOrArn) {
    try {
      return Optional.of(plan.function(nameOrArn));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** Invokes a deployed function synchronously, as {@code Invoke} with RequestResponse does. */
  public LambdaResult invoke(String nameOrArn, String payload) {
    DeployedFunction fn =
        function(nameOrArn)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "functionName: no deployed function " + nameOrArn));
    return lambdas.invoke(fn.functionName(), payload);
  }

  /** Runs the schedule (a Scheduler schedule's or a rule's name) at once; returns its result. */
  public LambdaResult triggerSchedule(String name) {
    return scheduler.trigger(name);
  }

  /** Every schedule's name. */
  public java.util.Set<String> scheduleNames() {
    return scheduler.names();
  }

  /** Stops what was started after {@code cause} failed the deployment, keeping {@code cause}. */
  void closeQuietly(RuntimeException cause) {
    try {
      close();
    } catch (RuntimeException e) {
      cause.addSuppressed(e);
    }
  }

  @Override
  public void close() {
    RuntimeException first = null;
    while (!started.isEmpty()) {
      try {
        started.pop().close();
      } catch (Exception e) {
        if (first == null) {
          first = new IllegalStateException("stopping the deployed stack: " + e.getMessage(), e);
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
