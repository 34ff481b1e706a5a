package dev.protomolt.gateway;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.protomolt.proto.module.v1.WorkDispatch;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * {@link WorkSource} over Kafka: per module service one consumer of
 * {@code pipestream.module.<module_id>}, buffering records up to a bound per partition (records
 * and bytes; a full partition is paused), and committing a partition's offset only up to its first
 * record not yet settled, so a gateway crash redelivers every unsettled record and nothing else.
 *
 * <p>A module service's buffered records are served fairly between accounts ({@link
 * FairShareQueue}, decisions 1652 and 1658): the account and graph are read from each record as
 * it arrives, and the accounts holding records take turns of their weight, an account past its
 * rate limit waiting in the buffer while the others are served, so one account's backlog cannot
 * starve another's few documents within the buffered window.
 *
 * <p>The consumer is only touched by its own poll thread; the gateway's sessions touch the buffers
 * under this source's lock, and the poll thread picks settlements up on its next turn.
 */
public final class KafkaWorkSource implements WorkSource, AutoCloseable {

  private static final System.Logger LOG = System.getLogger(KafkaWorkSource.class.getName());

  /** The topic a module service's dispatches are produced to (the dispatch contract). */
  public static String topic(String moduleId) {
    return "pipestream.module." + moduleId;
  }

  /**
   * Most payload bytes buffered per partition: the record bound alone would let records carrying
   * inline documents (up to the 256 KiB inline limit each) fill the heap.
   */
  static final long BYTES_PER_PARTITION = 32L * 1024 * 1024;

  /** How long one commit may wait for a broker before the poll loop moves on and retries. */
  private static final Duration COMMIT_TIMEOUT = Duration.ofSeconds(5);

  /** Most records one consumer poll returns, whatever the buffer bound. */
  private static final int MAX_POLL_RECORDS = 1000;

  /**
   * Where a popped record sits: its partition, offset and the assignment it was fetched under, the
   * account and graph it is served fairly under, its node (the per-node backlog), and the record's
   * Kafka timestamp (its age in the queue).
   */
  private record Position(
      TopicPartition partition,
      long offset,
      long generation,
      String account,
      String graph,
      String node,
      long timestamp) {}

  /**
   * One module service's share of this task's queue, for the backlog signals.
   *
   * @param fetchPositions per partition this task holds, the offset it fetches next: records from
   *     there to the log end wait in Kafka for this task
   * @param buffered records fetched and not handed to a module
   * @param oldestBufferedMillis the Kafka timestamp of the oldest buffered record, or empty when
   *     none is buffered
   */
  public record QueueSnapshot(
      Map<TopicPartition, Long> fetchPositions,
      int buffered,
      OptionalLong oldestBufferedMillis,
      Map<GraphNode, NodeQueue> nodes) {}

  /** A graph's node, as a buffered record's dispatch names it. */
  public record GraphNode(String graphId, String nodeId) {}

  /**
   * One node's buffered records.
   *
   * @param buffered records of the node fetched and not handed to a module
   * @param oldestBufferedMillis the Kafka timestamp of the oldest of them
   */
  public record NodeQueue(int buffered, long oldestBufferedMillis) {}

  /** One assigned partition's buffer count and its unsettled offsets (buffered or in flight). */
  private static final class PartitionBuffer {
    final long generation;
    int buffered;
    long bufferedBytes;
    final TreeSet<Long> unsettled = new TreeSet<>();
    long nextFetch = -1;
    long committed = -1;
    boolean paused;

    PartitionBuffer(long generation) {
      this.generation = generation;
    }

    /** The offset it is safe to commit: everything before it is settled. */
    long commitPoint() {
      return unsettled.isEmpty() ? nextFetch : unsettled.first();
    }
  }

  private final int capacityPerPartition;
  private final GatewayClock clock;
  private final Map<String, ModuleConsumer> consumers = new LinkedHashMap<>();
  private final Map<String, Map<TopicPartition, PartitionBuffer>> buffers = new HashMap<>();
  private final Map<String, FairShareQueue<PendingWork>> queues = new HashMap<>();
  private final Map<String, List<CompletableFuture<Void>>> waiters = new HashMap<>();
  private long generations;

  /**
   * @param bootstrapServers the brokers
   * @param groupId the consumer group every gateway task shares, so partitions spread over them
   * @param moduleIds the module services this gateway serves
   * @param capacityPerPartition most records buffered (not in flight) per partition
   */
  public KafkaWorkSource(
      String bootstrapServers,
      String groupId,
      Collection<String> moduleIds,
      int capacityPerPartition) {
    this(
        bootstrapServers,
        Map.of(),
        groupId,
        moduleIds,
        capacityPerPartition,
        AccountShares.EQUAL,
        GatewayClock.system());
  }

  /**
   * @param connection how to authenticate (SASL/IAM on MSK); laid under the consumer's own
   *     settings, so it cannot change offsets, grouping or commits
   * @param shares each account's weight and rate limit in every module service's turns
   * @param clock what the rate limits are measured and waited on by
   */
  public KafkaWorkSource(
      String bootstrapServers,
      Map<String, Object> connection,
      String groupId,
      Collection<String> moduleIds,
      int capacityPerPartition,
      AccountShares shares,
      GatewayClock clock) {
    Objects.requireNonNull(bootstrapServers, "bootstrapServers");
    Objects.requireNonNull(shares, "shares");
    this.clock = Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(connection, "connection");
    Objects.requireNonNull(groupId, "groupId");
    if (capacityPerPartition < 1) {
      throw new IllegalArgumentException(
          "capacityPerPartition must be >= 1, got " + capacityPerPartition);
    }
    if (moduleIds.isEmpty()) {
      throw new IllegalArgumentException("moduleIds must name at least one module service");
    }
    this.capacityPerPartition = capacityPerPartition;
    for (String moduleId : moduleIds) {
      buffers.put(moduleId, new LinkedHashMap<>());
      queues.put(moduleId, new FairShareQueue<>(shares));
      consumers.put(moduleId, new ModuleConsumer(moduleId, bootstrapServers, connection, groupId));
    }
    consumers.values().forEach(ModuleConsumer::start);
  }

  // ------------------------------------------------------------------------------ WorkSource

  @Override
  public synchronized Optional<PendingWork> poll(String moduleId) {
    FairShareQueue<PendingWork> queue = queues.get(moduleId);
    if (queue == null) {
      return Optional.empty();
    }
    Instant now = clock.now();
    for (Optional<PendingWork> next = queue.poll(now); next.isPresent(); next = queue.poll(now)) {
      PendingWork w = next.get();
      PartitionBuffer b = current(w);
      if (b != null) {
        b.buffered--;
        b.bufferedBytes -= w.payload().length;
        return next;
      }
      // Fetched under an assignment since revoked: another gateway redelivers it.
    }
    return Optional.empty();
  }

  /**
   * Completes at once when a record can be served now; otherwise on the next arrival or, when
   * every buffered record's account is past its rate limit, once the soonest of them has a token
   * again, so a waiting Hello neither spins on records it may not take nor misses their turn.
   */
  @Override
  public CompletableFuture<Void> arrival(String moduleId) {
    CompletableFuture<Void> f = new CompletableFuture<>();
    Optional<Duration> wait;
    synchronized (this) {
      FairShareQueue<PendingWork> queue = queues.get(moduleId);
      wait = queue == null ? Optional.empty() : queue.untilServable(clock.now());
      if (wait.filter(Duration::isZero).isPresent()) {
        return CompletableFuture.completedFuture(null);
      }
      waiters.computeIfAbsent(moduleId, m -> new ArrayList<>()).add(f);
    }
    wait.ifPresent(
        w ->
            clock
                .after(w)
                .thenRun(
                    () -> {
                      List<CompletableFuture<Void>> wake;
                      synchronized (this) {
                        wake = takeWaiters(moduleId);
                      }
                      wake.forEach(x -> x.complete(null));
                    }));
    return f;
  }

  @Override
  public void rebuffer(PendingWork work) {
    List<CompletableFuture<Void>> wake;
    synchronized (this) {
      PartitionBuffer b = current(work);
      if (b == null) {
        // The partition moved to another gateway, which redelivers from the committed offset.
        return;
      }
      Position p = (Position) work.position();
      queues
          .get(work.moduleId())
          .addFirst(p.account(), p.graph(), lane(p.partition()), work, clock.now());
      b.buffered++;
      b.bufferedBytes += work.payload().length;
      wake = takeWaiters(work.moduleId());
    }
    wake.forEach(f -> f.complete(null));
  }

  @Override
  public synchronized void settle(PendingWork work) {
    PartitionBuffer b = current(work);
    if (b != null) {
      b.unsettled.remove(((Position) work.position()).offset());
    }
  }

  /** Records buffered (not in flight) for a module, over all its partitions. */
  public synchronized int buffered(String moduleId) {
    return buffers.getOrDefault(moduleId, Map.of()).values().stream()
        .mapToInt(b -> b.buffered)
        .sum();
  }

  /** What this task holds and has yet to fetch for a module service, at one instant. */
  public synchronized QueueSnapshot queue(String moduleId) {
    Map<TopicPartition, Long> positions = new LinkedHashMap<>();
    int buffered = 0;
    for (var e : buffers.getOrDefault(moduleId, Map.of()).entrySet()) {
      if (e.getValue().nextFetch >= 0) {
        positions.put(e.getKey(), e.getValue().nextFetch);
      }
      buffered += e.getValue().buffered;
    }
    long[] oldest = {Long.MAX_VALUE};
    Map<GraphNode, NodeQueue> nodes = new HashMap<>();
    FairShareQueue<PendingWork> queue = queues.get(moduleId);
    if (queue != null) {
      queue.forEach(
          w -> {
            Position p = (Position) w.position();
            oldest[0] = Math.min(oldest[0], p.timestamp());
            nodes.merge(
                new GraphNode(p.graph(), p.node()),
                new NodeQueue(1, p.timestamp()),
                (a, b) ->
                    new NodeQueue(
                        a.buffered() + b.buffered(),
                        Math.min(a.oldestBufferedMillis(), b.oldestBufferedMillis())));
          });
    }
    return new QueueSnapshot(
        Map.copyOf(positions),
        buffered,
        oldest[0] == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(oldest[0]),
        Map.copyOf(nodes));
  }

  /** Records buffered (not in flight) for one partition of a module, or 0 when unassigned. */
  public synchronized int buffered(String moduleId, int partition) {
    PartitionBuffer b =
        buffers
            .getOrDefault(moduleId, Map.of())
            .get(new TopicPartition(topic(moduleId), partition));
    return b == null ? 0 : b.buffered;
  }

  /** Records buffered (not in flight) for a module under one account's fair share. */
  public synchronized int bufferedFor(String moduleId, String accountId) {
    FairShareQueue<PendingWork> queue = queues.get(moduleId);
    return queue == null ? 0 : queue.size(accountId);
  }

  /**
   * The account and graph a dispatch record is served under, and its node: its stream's account,
   * its graph and node, or {@code ""} for a record that does not parse (the screens drain it when
   * it is served).
   */
  static FairnessKeys fairnessKeysOf(byte[] payload) {
    try {
      WorkDispatch d = WorkDispatch.parseFrom(payload);
      return new FairnessKeys(
          d.getStream().getMetadata().getAccountId(), d.getGraphId(), d.getNodeId());
    } catch (InvalidProtocolBufferException e) {
      return new FairnessKeys("", "", "");
    }
  }

  /**
   * What a record takes its turns under (its account, then its graph inside the account), and the
   * node it is counted under in the backlog.
   */
  record FairnessKeys(String account, String graph, String node) {}

  /** The offset last committed for a partition, or -1 before the first commit. */
  public synchronized long committed(String moduleId, int partition) {
    PartitionBuffer b =
        buffers
            .getOrDefault(moduleId, Map.of())
            .get(new TopicPartition(topic(moduleId), partition));
    return b == null ? -1 : b.committed;
  }

  @Override
  public void close() {
    consumers.values().forEach(ModuleConsumer::stop);
    consumers.values().forEach(ModuleConsumer::join);
  }

  private static String lane(TopicPartition tp) {
    return Integer.toString(tp.partition());
  }

  private PartitionBuffer current(PendingWork work) {
    Position p = (Position) work.position();
    PartitionBuffer b = buffers.getOrDefault(work.moduleId(), Map.of()).get(p.partition());
    return b != null && b.generation == p.generation() ? b : null;
  }

  private List<CompletableFuture<Void>> takeWaiters(String moduleId) {
    List<CompletableFuture<Void>> w = waiters.remove(moduleId);
    return w == null ? List.of() : w.stream().filter(f -> !f.isDone()).toList();
  }

  // -------------------------------------------------------------------------- the poll thread

  /** One consumer and the thread that owns it. */
  private final class ModuleConsumer implements ConsumerRebalanceListener {
    private final String moduleId;
    private final KafkaConsumer<String, byte[]> consumer;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;

    ModuleConsumer(
        String moduleId, String bootstrapServers, Map<String, Object> connection, String groupId) {
      this.moduleId = moduleId;
      Properties p = new Properties();
      p.putAll(connection);
      p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
      p.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
      p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
      // A new group starts from the oldest record: a dispatch produced before any gateway ran
      // still waits for its module.
      p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      p.put(
          ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
          Integer.toString(Math.min(capacityPerPartition, MAX_POLL_RECORDS)));
      p.put(ConsumerConfig.CLIENT_ID_CONFIG, "gateway-" + moduleId);
      this.consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
      this.thread =
          Thread.ofPlatform().daemon().name("gateway-consumer-" + moduleId).unstarted(this::run);
    }

    void start() {
      thread.start();
    }

    void stop() {
      running.set(false);
      consumer.wakeup();
    }

    void join() {
      try {
        thread.join(Duration.ofSeconds(30));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    private void run() {
      try {
        consumer.subscribe(List.of(topic(moduleId)), this);
        while (running.get()) {
          commitSettled();
          pauseOrResume();
          var records = consumer.poll(Duration.ofMillis(100));
          if (!records.isEmpty()) {
            accept(records);
          }
        }
        commitSettled();
      } catch (WakeupException e) {
        if (running.get()) {
          throw e;
        }
        commitSettled();
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.ERROR, "consumer of " + topic(moduleId) + " stopped", e);
      } finally {
        consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
      }
    }

    private void accept(Iterable<ConsumerRecord<String, byte[]>> records) {
      List<CompletableFuture<Void>> wake;
      synchronized (KafkaWorkSource.this) {
        Map<TopicPartition, PartitionBuffer> parts = buffers.get(moduleId);
        for (ConsumerRecord<String, byte[]> r : records) {
          TopicPartition tp = new TopicPartition(r.topic(), r.partition());
          PartitionBuffer b = parts.get(tp);
          if (b == null) {
            continue;
          }
          FairnessKeys keys = fairnessKeysOf(r.value());
          PendingWork w =
              new PendingWork(
                  moduleId,
                  r.key(),
                  r.value(),
                  new Position(
                      tp,
                      r.offset(),
                      b.generation,
                      keys.account(),
                      keys.graph(),
                      keys.node(),
                      r.timestamp()));
          queues.get(moduleId).addLast(keys.account(), keys.graph(), lane(tp), w);
          b.buffered++;
          b.bufferedBytes += w.payload().length;
          b.unsettled.add(r.offset());
          b.nextFetch = r.offset() + 1;
        }
        wake = takeWaiters(moduleId);
      }
      wake.forEach(f -> f.complete(null));
    }

    /** Commits each partition up to its first unsettled record, when that moved. */
    private void commitSettled() {
      Map<TopicPartition, OffsetAndMetadata> commits = new HashMap<>();
      synchronized (KafkaWorkSource.this) {
        for (var e : buffers.get(moduleId).entrySet()) {
          PartitionBuffer b = e.getValue();
          long point = b.commitPoint();
          if (point >= 0 && point > b.committed) {
            commits.put(e.getKey(), new OffsetAndMetadata(point));
          }
        }
      }
      if (commits.isEmpty()) {
        return;
      }
      try {
        consumer.commitSync(commits, COMMIT_TIMEOUT);
      } catch (WakeupException e) {
        throw e;
      } catch (KafkaException e) {
        // A broker restarting or a rebalance: nothing settled is lost by committing later, and
        // a record redelivered meanwhile is screened as already settled. Giving up here would
        // stop the consumer and strand the whole backlog.
        LOG.log(
            System.Logger.Level.WARNING,
            "committing " + commits.keySet() + " failed; retried on the next turn: " + e);
        return;
      }
      synchronized (KafkaWorkSource.this) {
        commits.forEach(
            (tp, o) -> {
              PartitionBuffer b = buffers.get(moduleId).get(tp);
              if (b != null) {
                b.committed = Math.max(b.committed, o.offset());
              }
            });
      }
    }

    private void pauseOrResume() {
      List<TopicPartition> pause = new ArrayList<>();
      List<TopicPartition> resume = new ArrayList<>();
      synchronized (KafkaWorkSource.this) {
        for (var e : buffers.get(moduleId).entrySet()) {
          PartitionBuffer b = e.getValue();
          boolean full =
              b.buffered >= capacityPerPartition || b.bufferedBytes >= BYTES_PER_PARTITION;
          if (full && !b.paused) {
            pause.add(e.getKey());
            b.paused = true;
          } else if (!full && b.paused) {
            resume.add(e.getKey());
            b.paused = false;
          }
        }
      }
      if (!pause.isEmpty()) {
        consumer.pause(pause);
      }
      if (!resume.isEmpty()) {
        consumer.resume(resume);
      }
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
      synchronized (KafkaWorkSource.this) {
        for (TopicPartition tp : partitions) {
          PartitionBuffer b = new PartitionBuffer(++generations);
          buffers.get(moduleId).put(tp, b);
        }
      }
      for (TopicPartition tp : partitions) {
        long position = consumer.position(tp);
        synchronized (KafkaWorkSource.this) {
          PartitionBuffer b = buffers.get(moduleId).get(tp);
          b.nextFetch = position;
          b.committed = position;
        }
      }
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
      commitSettled();
      synchronized (KafkaWorkSource.this) {
        forget(Set.copyOf(partitions));
      }
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
      synchronized (KafkaWorkSource.this) {
        forget(Set.copyOf(partitions));
      }
    }

    /** Drops partitions this gateway no longer holds and the records it buffered from them. */
    private void forget(Set<TopicPartition> gone) {
      buffers.get(moduleId).keySet().removeAll(gone);
      queues.get(moduleId).removeIf(w -> gone.contains(((Position) w.position()).partition()));
    }
  }
}
