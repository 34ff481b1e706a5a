package dev.protomolt.cli;

import dev.protomolt.identity.GatewayCallCredentials;
import dev.protomolt.module.sdk.DocumentProcessor;
import dev.protomolt.module.sdk.ModuleOutcome;
import dev.protomolt.module.sdk.ModuleWorker;
import dev.protomolt.module.sdk.WorkContext;
import dev.protomolt.module.sdk.WorkerClock;
import dev.protomolt.module.sdk.WorkerConfig;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The sample modules run as workers that die at random while they hold a work unit, each on its
 * own gRPC channel to the gateway, and are replaced by fresh ones.
 *
 * <p>A kill is decided per delivery of a work unit from the seed, the work unit id and how often
 * that unit was delivered, so a seed picks the same victims on every run (timing still varies). It
 * happens at one of two moments, both while the worker holds the unit: before the processor runs
 * (the worker then waits, like a hung process, until it is torn down) or after the processor ran
 * and made its side effects (the sink has written its index) but before the ack is sent. Either
 * way the kill is the worker's channel shut down at once, which cancels every stream it has open.
 * A supervisor thread then stops the dead worker and starts a replacement on a new channel. It
 * never interrupts: the sample sink's processor is shared by every sink worker (one Lucene writer
 * per index folder), and an interrupt in its file I/O would close that writer for all of them.
 */
final class ChaosWorkers implements AutoCloseable {

  /** A unit may be killed on its first deliveries only, so every unit finishes eventually. */
  static final int KILLABLE_DELIVERIES = 2;

  private final Supplier<ManagedChannelBuilder<?>> gateway;
  private final Function<String, GatewayCallCredentials> credentials;
  private final long seed;
  private final double killChance;
  private final Map<String, DocumentProcessor> processors;
  private final List<Victim> live = new ArrayList<>();
  private final BlockingQueue<Victim> dead = new LinkedBlockingQueue<>();
  private final Map<String, AtomicInteger> deliveries = new ConcurrentHashMap<>();
  private final AtomicInteger kills = new AtomicInteger();
  private final AtomicInteger killsAfterProcessing = new AtomicInteger();
  private final AtomicInteger replacements = new AtomicInteger();
  private final Thread supervisor;
  private volatile boolean closing;

  /**
   * Starts {@code workersPerModule} workers (two streams each) per processor in
   * {@code processors}; each delivery is killed with probability {@code killChance}.
   */
  ChaosWorkers(
      Supplier<ManagedChannelBuilder<?>> gateway,
      Function<String, GatewayCallCredentials> credentials,
      Map<String, DocumentProcessor> processors,
      int workersPerModule,
      long seed,
      double killChance) {
    this.gateway = gateway;
    this.credentials = credentials;
    this.seed = seed;
    this.killChance = killChance;
    this.processors = Map.copyOf(processors);
    for (String moduleId : this.processors.keySet()) {
      for (int i = 0; i < workersPerModule; i++) {
        startVictim(moduleId);
      }
    }
    this.supervisor = Thread.ofPlatform().name("chaos-supervisor").daemon().start(this::replace);
  }

  int kills() {
    return kills.get();
  }

  int killsAfterProcessing() {
    return killsAfterProcessing.get();
  }

  int replacements() {
    return replacements.get();
  }

  private synchronized void startVictim(String moduleId) {
    if (closing) {
      return;
    }
    Victim victim = new Victim(moduleId);
    live.add(victim);
    victim.worker.start();
  }

  /** Tears down each killed worker and starts its replacement. */
  private void replace() {
    try {
      while (!closing) {
        Victim victim = dead.poll(100, TimeUnit.MILLISECONDS);
        if (victim == null) {
          continue;
        }
        // Not shutdownNow: an interrupt landing in the sink's Lucene I/O would close the index
        // writer the replacement shares. A hung victim is let go by its latch instead.
        victim.hang.countDown();
        victim.worker.shutdown();
        victim.worker.awaitTermination(Duration.ofSeconds(10));
        synchronized (this) {
          live.remove(victim);
        }
        replacements.incrementAndGet();
        startVictim(victim.moduleId);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    List<Victim> stopping;
    synchronized (this) {
      closing = true;
      stopping = List.copyOf(live);
      live.clear();
    }
    supervisor.interrupt();
    for (Victim victim : stopping) {
      victim.hang.countDown();
      victim.worker.shutdown();
      victim.channel.shutdownNow();
    }
    dead.forEach(v -> v.channel.shutdownNow());
  }

  /** One worker on its own channel, with the processor that may kill it. */
  private final class Victim implements DocumentProcessor {

    private final String moduleId;
    private final DocumentProcessor delegate;
    private final ManagedChannel channel;
    private final ModuleWorker worker;
    private final AtomicBoolean killed = new AtomicBoolean();
    private final CountDownLatch hang = new CountDownLatch(1);

    Victim(String moduleId) {
      this.moduleId = moduleId;
      this.delegate = processors.get(moduleId);
      this.channel = gateway.get().intercept(credentials.apply(moduleId).interceptor()).build();
      this.worker =
          new ModuleWorker(channel, WorkerConfig.of(moduleId, 2), this, WorkerClock.system());
    }

    @Override
    public ModuleOutcome process(WorkContext work) throws Exception {
      int delivery =
          deliveries.computeIfAbsent(work.workUnitId(), k -> new AtomicInteger()).incrementAndGet();
      Random draw = new Random(seed ^ (31L * work.workUnitId().hashCode() + delivery));
      boolean kill = delivery <= KILLABLE_DELIVERIES && draw.nextDouble() < killChance;
      if (kill && draw.nextBoolean()) {
        kill();
        // A hung process holds its unit until it is torn down; the teardown releases the latch.
        hang.await();
        throw new IllegalStateException(
            "worker " + moduleId + " was killed holding " + work.workUnitId());
      }
      ModuleOutcome outcome = delegate.process(work);
      if (kill && kill()) {
        killsAfterProcessing.incrementAndGet();
      }
      return outcome;
    }

    /** Shuts the channel at once (every open stream is cancelled) and hands us to the supervisor. */
    private boolean kill() {
      if (!killed.compareAndSet(false, true)) {
        return false;
      }
      kills.incrementAndGet();
      channel.shutdownNow();
      dead.add(this);
      return true;
    }
  }
}
