package dev.protomolt.localstack.sfn.engine;

import dev.protomolt.localstack.sfn.asl.State;
import dev.protomolt.localstack.sfn.asl.StatesError;
import java.time.Duration;
import java.util.List;
import java.util.function.DoubleSupplier;

/** Which retrier or catcher handles an error, and how long a retry waits. */
final class RetryPolicy {

  private final DoubleSupplier jitter;

  /** @param jitter uniform values in [0, 1) for JitterStrategy FULL */
  RetryPolicy(DoubleSupplier jitter) {
    this.jitter = jitter;
  }

  /**
   * AWS: a name matches itself; States.ALL matches every error except the terminal ones;
   * States.TaskFailed matches every error except States.Timeout.
   */
  static boolean matches(List<String> errorEquals, StatesError error) {
    if (error.terminal()) {
      return false;
    }
    for (String name : errorEquals) {
      if (name.equals(error.error())
          || name.equals(StatesError.ALL)
          || (name.equals(StatesError.TASK_FAILED) && !error.error().equals(StatesError.TIMEOUT))) {
        return true;
      }
    }
    return false;
  }

  /** Index of the first retrier whose ErrorEquals matches, or -1. */
  static int retrierFor(List<State.Retrier> retriers, StatesError error) {
    for (int i = 0; i < retriers.size(); i++) {
      if (matches(retriers.get(i).errorEquals(), error)) {
        return i;
      }
    }
    return -1;
  }

  static State.Catcher catcherFor(List<State.Catcher> catchers, StatesError error) {
    for (State.Catcher catcher : catchers) {
      if (matches(catcher.errorEquals(), error)) {
        return catcher;
      }
    }
    return null;
  }

  /**
   * The wait before retry number {@code attempt} (1-based): IntervalSeconds *
   * BackoffRate^(attempt-1), capped by MaxDelaySeconds, then drawn uniformly from [0, delay] with
   * JitterStrategy FULL.
   */
  Duration delay(State.Retrier retrier, int attempt) {
    double seconds = retrier.intervalSeconds() * Math.pow(retrier.backoffRate(), attempt - 1);
    if (retrier.maxDelaySeconds() != null) {
      seconds = Math.min(seconds, retrier.maxDelaySeconds());
    }
    if (retrier.fullJitter()) {
      seconds = seconds * jitter.getAsDouble();
    }
    return Duration.ofMillis(Math.round(seconds * 1000));
  }
}
