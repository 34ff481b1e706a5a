package dev.protomolt.gateway.diagnostics;

import com.google.protobuf.Duration;
import dev.protomolt.proto.engine.v1.ProbeResult;
import dev.protomolt.proto.engine.v1.ProbeStep;

/**
 * One probe's steps in order. A step that throws ends the probe: the result is not ok, the failed
 * step is the last one listed, and the error names the step and what it could not reach, so an
 * operator reads what to fix from the first line.
 */
final class ProbeRun {

  /** A step's work; returns the detail the step reports when it succeeds. */
  @FunctionalInterface
  interface Step {
    String run() throws Exception;
  }

  private final ProbeResult.Builder result;
  private final long started = System.nanoTime();
  private boolean failed;

  ProbeRun(String probe) {
    this.result = ProbeResult.newBuilder().setProbe(probe);
  }

  /**
   * Runs {@code step} unless an earlier one failed. {@code dependency} names what the step talks to
   * ("S3 at http://...", "Kafka broker at ..."); a failure's message starts with it.
   */
  ProbeRun step(String name, String dependency, Step step) {
    if (failed) {
      return this;
    }
    long t0 = System.nanoTime();
    ProbeStep.Builder s = ProbeStep.newBuilder().setName(name);
    try {
      s.setOk(true).setDetail(step.run());
    } catch (Exception e) {
      failed = true;
      String why = dependency + ": " + name + " failed: " + message(e);
      s.setOk(false).setDetail(why);
      result.setError(why);
    }
    result.addSteps(s.setElapsed(since(t0)));
    return this;
  }

  /** Ends the run with a failure found without a step (a refused request, say). */
  ProbeRun fail(String error) {
    if (!failed) {
      failed = true;
      result.setError(error);
    }
    return this;
  }

  boolean failed() {
    return failed;
  }

  ProbeResult result() {
    return result.setOk(!failed).setElapsed(since(started)).build();
  }

  /** The first useful message of an exception chain: SDK and Kafka errors nest the cause. */
  static String message(Throwable e) {
    StringBuilder b = new StringBuilder();
    for (Throwable t = e; t != null && b.length() < 600; t = t.getCause()) {
      String m = t.getMessage();
      if (m == null || m.isBlank() || b.indexOf(m) >= 0) {
        continue;
      }
      if (!b.isEmpty()) {
        b.append(": ");
      }
      b.append(m);
    }
    return b.isEmpty() ? e.getClass().getSimpleName() : b.toString();
  }

  private static Duration since(long t0) {
    long nanos = System.nanoTime() - t0;
    return Duration.newBuilder()
        .setSeconds(nanos / 1_000_000_000L)
        .setNanos((int) (nanos % 1_000_000_000L))
        .build();
  }
}
