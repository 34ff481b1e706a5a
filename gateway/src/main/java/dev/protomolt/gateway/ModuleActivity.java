package dev.protomolt.gateway;

import java.time.Duration;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What this gateway task's Work streams are doing per module service right now: streams open,
 * units held by a module, and the ack latency since the last look. The backlog signals read it
 * each minute; the sessions update it as they change phase.
 */
public final class ModuleActivity {

  /** The ack latencies since the last {@link #takeAckLatency} of one module service. */
  public record AckLatency(long acks, long totalMillis) {
    /** The mean over the acks, or empty when there was none. */
    public OptionalDouble meanMillis() {
      return acks == 0 ? OptionalDouble.empty() : OptionalDouble.of((double) totalMillis / acks);
    }
  }

  private static final class Module {
    final AtomicLong streams = new AtomicLong();
    final AtomicLong inFlight = new AtomicLong();
    long acks;
    long ackMillis;
  }

  private final Map<String, Module> modules = new ConcurrentHashMap<>();

  void streamOpened(String moduleId) {
    module(moduleId).streams.incrementAndGet();
  }

  void streamClosed(String moduleId) {
    module(moduleId).streams.decrementAndGet();
  }

  void unitServed(String moduleId) {
    module(moduleId).inFlight.incrementAndGet();
  }

  void unitReleased(String moduleId) {
    module(moduleId).inFlight.decrementAndGet();
  }

  void acked(String moduleId, Duration latency) {
    Module m = module(moduleId);
    synchronized (m) {
      m.acks++;
      m.ackMillis += Math.max(0, latency.toMillis());
    }
  }

  /** Work streams of the module open on this task: waiting for a record or serving one. */
  public long streamsOpen(String moduleId) {
    Module m = modules.get(moduleId);
    return m == null ? 0 : m.streams.get();
  }

  /** Units served to the module and not yet acked, re-buffered or drained. */
  public long unitsInFlight(String moduleId) {
    Module m = modules.get(moduleId);
    return m == null ? 0 : m.inFlight.get();
  }

  /** The acks settled since the last call, and resets them: one minute's figure at a time. */
  public AckLatency takeAckLatency(String moduleId) {
    Module m = modules.get(moduleId);
    if (m == null) {
      return new AckLatency(0, 0);
    }
    synchronized (m) {
      AckLatency out = new AckLatency(m.acks, m.ackMillis);
      m.acks = 0;
      m.ackMillis = 0;
      return out;
    }
  }

  private Module module(String moduleId) {
    return modules.computeIfAbsent(moduleId, k -> new Module());
  }
}
