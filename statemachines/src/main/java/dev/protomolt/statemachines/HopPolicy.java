package dev.protomolt.statemachines;

import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.GraphSettings;
import dev.protomolt.proto.config.v1.RetryPolicy;
import java.util.List;

/**
 * The timing of one node's Work task after defaults are applied: node value, else the graph
 * setting, else the built-in default (a zero field means "not set" at every level).
 *
 * <p>The Work task carries no HeartbeatSeconds: a dispatched hop waits in its module's queue
 * unheartbeated, and the gateway's watchdog (twice {@code heartbeatSeconds}) owns the liveness of
 * claimed work (decision 1650).
 *
 * @param heartbeatSeconds the module's heartbeat interval, which the gateway's watchdog enforces
 * @param timeoutSeconds the longest one attempt may run once a module holds it
 * @param queueTtlSeconds how long the hop may wait queued before it dead-letters
 * @param retry the backoff for retryable module outcomes
 */
record HopPolicy(int heartbeatSeconds, int timeoutSeconds, int queueTtlSeconds, Backoff retry) {

  static final int DEFAULT_HEARTBEAT_SECONDS = 30;
  static final int DEFAULT_TIMEOUT_SECONDS = 900;
  static final int DEFAULT_QUEUE_TTL_SECONDS = 86_400;

  /**
   * A Standard workflow runs at most a year, so a Work state whose queue time to live plus attempt
   * time exceeds it could never time out before the execution does.
   */
  static final int MAX_WORK_SECONDS = 31_536_000;

  /**
   * TimeoutSeconds of the Work task: the queue time to live plus one attempt, so a hop that waited
   * its whole time to live can still run once.
   */
  int workTimeoutSeconds() {
    return queueTtlSeconds + timeoutSeconds;
  }

  /** The seeds' first-hop policy: 5 attempts, 2 s growing to 60 s. */
  static final Backoff DEFAULT_FIRST_HOP = new Backoff(5, 2, 60, 2.0);

  static final Backoff DEFAULT_MODULE = new Backoff(3, 2, 60, 2.0);

  /**
   * @param maxAttempts retries after the first attempt (Step Functions' MaxAttempts)
   * @param intervalSeconds wait before the first retry
   * @param maxDelaySeconds cap on the grown wait (MaxDelaySeconds)
   * @param backoffRate growth factor of the wait
   */
  record Backoff(int maxAttempts, int intervalSeconds, int maxDelaySeconds, double backoffRate) {}

  /** Resolves the policy, adding a problem for every field a graph author set out of range. */
  static HopPolicy resolve(
      GraphNode node,
      GraphSettings settings,
      boolean firstHop,
      String where,
      List<CompileProblem> problems) {
    nonNegative(where, "heartbeat_seconds", node.getHeartbeatSeconds(), problems);
    nonNegative(where, "timeout_seconds", node.getTimeoutSeconds(), problems);
    nonNegative(
        "graph settings",
        "default_heartbeat_seconds",
        settings.getDefaultHeartbeatSeconds(),
        problems);
    nonNegative(
        "graph settings", "default_timeout_seconds", settings.getDefaultTimeoutSeconds(), problems);
    nonNegative("graph settings", "queue_ttl_seconds", settings.getQueueTtlSeconds(), problems);
    int heartbeat =
        first(
            node.getHeartbeatSeconds(),
            settings.getDefaultHeartbeatSeconds(),
            DEFAULT_HEARTBEAT_SECONDS);
    int timeout =
        first(
            node.getTimeoutSeconds(), settings.getDefaultTimeoutSeconds(), DEFAULT_TIMEOUT_SECONDS);
    int queueTtl = first(0, settings.getQueueTtlSeconds(), DEFAULT_QUEUE_TTL_SECONDS);
    if (heartbeat >= timeout) {
      problems.add(
          new CompileProblem(
              where,
              "heartbeat-below-timeout",
              "heartbeat_seconds ("
                  + heartbeat
                  + ") must be less than timeout_seconds ("
                  + timeout
                  + "); a module that heartbeats no faster than its attempt may run is never"
                  + " watched"));
    }
    if ((long) queueTtl + timeout > MAX_WORK_SECONDS) {
      problems.add(
          new CompileProblem(
              where,
              "queue-ttl-bounds",
              "settings.queue_ttl_seconds ("
                  + queueTtl
                  + ") plus timeout_seconds ("
                  + timeout
                  + ") must not exceed "
                  + MAX_WORK_SECONDS
                  + " s, the longest a Standard workflow runs"));
    }
    Backoff builtIn = firstHop ? DEFAULT_FIRST_HOP : DEFAULT_MODULE;
    RetryPolicy graphLevel = firstHop ? settings.getFirstHopRetry() : settings.getModuleRetry();
    String graphField = firstHop ? "settings.first_hop_retry" : "settings.module_retry";
    checkPolicy(where, "retry_policy", node.getRetryPolicy(), problems);
    checkPolicy("graph settings", graphField, graphLevel, problems);
    RetryPolicy own = node.getRetryPolicy();
    Backoff retry =
        new Backoff(
            first(own.getMaxAttempts(), graphLevel.getMaxAttempts(), builtIn.maxAttempts()),
            first(
                own.getInitialIntervalSeconds(),
                graphLevel.getInitialIntervalSeconds(),
                builtIn.intervalSeconds()),
            first(
                own.getMaxIntervalSeconds(),
                graphLevel.getMaxIntervalSeconds(),
                builtIn.maxDelaySeconds()),
            own.getBackoffRate() > 0
                ? own.getBackoffRate()
                : graphLevel.getBackoffRate() > 0
                    ? graphLevel.getBackoffRate()
                    : builtIn.backoffRate());
    if (retry.maxDelaySeconds() < retry.intervalSeconds()) {
      problems.add(
          new CompileProblem(
              where,
              "retry-bounds",
              "the retry wait starts at "
                  + retry.intervalSeconds()
                  + " s but is capped at "
                  + retry.maxDelaySeconds()
                  + " s: max_interval_seconds must not be below initial_interval_seconds"));
    }
    return new HopPolicy(heartbeat, timeout, queueTtl, retry);
  }

  /**
   * The backoff of transient engine failures on the first hop: {@code settings.first_hop_retry},
   * field by field, else the seeds' first-hop policy. A node's own {@code retry_policy} is about
   * its module and does not apply to the engine's Lambdas.
   */
  static Backoff firstHopEngine(GraphSettings settings) {
    RetryPolicy graphLevel = settings.getFirstHopRetry();
    Backoff builtIn = DEFAULT_FIRST_HOP;
    return new Backoff(
        first(0, graphLevel.getMaxAttempts(), builtIn.maxAttempts()),
        first(0, graphLevel.getInitialIntervalSeconds(), builtIn.intervalSeconds()),
        first(0, graphLevel.getMaxIntervalSeconds(), builtIn.maxDelaySeconds()),
        graphLevel.getBackoffRate() > 0 ? graphLevel.getBackoffRate() : builtIn.backoffRate());
  }

  private static void checkPolicy(
      String where, String field, RetryPolicy policy, List<CompileProblem> problems) {
    nonNegative(where, field + ".max_attempts", policy.getMaxAttempts(), problems);
    nonNegative(
        where, field + ".initial_interval_seconds", policy.getInitialIntervalSeconds(), problems);
    nonNegative(where, field + ".max_interval_seconds", policy.getMaxIntervalSeconds(), problems);
    if (policy.getBackoffRate() != 0
        && (policy.getBackoffRate() < 1.0 || !Double.isFinite(policy.getBackoffRate()))) {
      problems.add(
          new CompileProblem(
              where,
              "retry-bounds",
              field
                  + ".backoff_rate is "
                  + policy.getBackoffRate()
                  + "; Step Functions requires a BackoffRate of at least 1.0 (0 = default)"));
    }
  }

  private static void nonNegative(
      String where, String field, int value, List<CompileProblem> problems) {
    if (value < 0) {
      problems.add(
          new CompileProblem(
              where,
              "non-negative",
              field + " is " + value + "; it must be positive, or 0 for the default"));
    }
  }

  private static int first(int own, int graphLevel, int builtIn) {
    return own > 0 ? own : graphLevel > 0 ? graphLevel : builtIn;
  }
}
