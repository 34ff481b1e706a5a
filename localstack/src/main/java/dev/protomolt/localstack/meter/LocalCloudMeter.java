package dev.protomolt.localstack.meter;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the requests the local cloud serves in this JVM, by service and kind ({@code s3.GET},
 * {@code s3.COPY}, {@code lambda.invocations.<function>}, ...), so a bench can put a per-document
 * request count and an AWS price on a run. Process-wide because the services are started deep
 * inside whatever composes the platform, and a meter must not need that code to hand it along;
 * counting is one {@link LongAdder} increment, cheap enough to stay on in every run.
 */
public final class LocalCloudMeter {

  private static final Map<String, LongAdder> COUNTS = new ConcurrentHashMap<>();

  private LocalCloudMeter() {}

  /** Adds {@code amount} to the counter {@code name}. */
  public static void add(String name, long amount) {
    COUNTS.computeIfAbsent(name, n -> new LongAdder()).add(amount);
  }

  /** Every counter's value now, sorted by name. */
  public static Map<String, Long> snapshot() {
    Map<String, Long> values = new TreeMap<>();
    COUNTS.forEach((name, adder) -> values.put(name, adder.sum()));
    return values;
  }

  /** What each counter gained since {@code before} (a {@link #snapshot()}); zero gains left out. */
  public static Map<String, Long> since(Map<String, Long> before) {
    Map<String, Long> gained = new TreeMap<>();
    snapshot()
        .forEach(
            (name, value) -> {
              long delta = value - before.getOrDefault(name, 0L);
              if (delta != 0) {
                gained.put(name, delta);
              }
            });
    return gained;
  }
}
