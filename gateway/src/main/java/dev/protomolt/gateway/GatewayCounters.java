package dev.protomolt.gateway;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** What the gateway did with records, for logs, tests and the drain bench. */
public final class GatewayCounters {

  private final AtomicLong served = new AtomicLong();
  private final AtomicLong settled = new AtomicLong();
  private final AtomicLong rebuffered = new AtomicLong();
  private final AtomicLong duplicates = new AtomicLong();
  private final AtomicLong heartbeatsRelayed = new AtomicLong();
  private final AtomicLong outputsTooLarge = new AtomicLong();
  private final Map<String, AtomicLong> drained = new ConcurrentHashMap<>();

  void onServed() {
    served.incrementAndGet();
  }

  void onSettled() {
    settled.incrementAndGet();
  }

  void onRebuffered() {
    rebuffered.incrementAndGet();
  }

  void onDuplicate() {
    duplicates.incrementAndGet();
  }

  void onHeartbeatRelayed() {
    heartbeatsRelayed.incrementAndGet();
  }

  void onOutputTooLarge() {
    outputsTooLarge.incrementAndGet();
  }

  void onDrained(String reason) {
    drained.computeIfAbsent(reason, r -> new AtomicLong()).incrementAndGet();
  }

  /** Work units handed to a module. */
  public long served() {
    return served.get();
  }

  /** Work units whose task token the gateway completed (success or typed failure). */
  public long settledUnits() {
    return settled.get();
  }

  public long rebufferedUnits() {
    return rebuffered.get();
  }

  public long duplicateAcks() {
    return duplicates.get();
  }

  public long heartbeatsRelayed() {
    return heartbeatsRelayed.get();
  }

  /** Hops failed with Gateway.TaskOutputTooLarge: a result that could not be handed on. */
  public long outputsTooLarge() {
    return outputsTooLarge.get();
  }

  /** Records drained by screening without reaching a module, by reason. */
  public Map<String, Long> drainedByReason() {
    Map<String, Long> out = new TreeMap<>();
    drained.forEach((k, v) -> out.put(k, v.get()));
    return out;
  }

  public long drainedTotal() {
    return drained.values().stream().mapToLong(AtomicLong::get).sum();
  }
}
