package dev.protomolt.localstack.lambda;

import java.time.Duration;

/**
 * How an event source waits between retries of a failed invocation. Production code sleeps;
 * tests pass one that records the requested pauses and returns at once, so no test waits on or
 * asserts the wall clock.
 */
@FunctionalInterface
public interface Pause {

  void pause(Duration duration) throws InterruptedException;

  Pause SLEEP = duration -> Thread.sleep(duration);
}
