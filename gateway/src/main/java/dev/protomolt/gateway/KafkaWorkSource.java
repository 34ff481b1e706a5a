package dev.protomolt.gateway;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * {@link WorkSource} over Kafka: per module service one consumer of
 * {@code pipestream.module.<module_id>}, buffering records in a bounded deque per partition
 * (a full deque pauses its partition), and committing a partition's offset only up to its first
 * record not yet settled, so a gateway crash redelivers every unsettled record and nothing else.
 *
 * <p>The consumer is only touched by its own poll thread; the gateway's sessions touch the deques
 * under this source's lock, and the poll thread picks settlements up on its next turn.
 */
public final class KafkaWorkSource implements WorkSource, AutoCloseable {

  private static final System.Logger LOG = System.getLogger(KafkaWorkSource.class.getName());

  /** The topic a module service's dispatches are produced to (the dispatch contract). */
  public static String topic(String moduleId) {
    return "pipestream.module." + moduleId;
  }

  /** Where a popped record sits: its partition, offset and the assignment it was fetched under. */
  private record Position(TopicPartition partition, long offset, long generation) {}

  /** One assigned partition's buffer and its unsettled offsets (buffered or in flight). */
  private static final class PartitionBuffer {
    final long generation;
    final Deque<PendingWork> deque = new ArrayDeque<>();
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
  private final Map<String, ModuleConsumer> consumers = new LinkedHashMap<>();
  private final Map<String, Map<TopicPartition, PartitionBuffer>> buffers = new HashMap<>();
  private final Map<String, List<CompletableFuture<Void>>> waiters = new HashMap<>();
  private final Map<String, Integer> nextPartition = new HashMap<>();
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
    this(bootstrapServers, Map.of(), groupId, moduleIds, capacityPerPartition);
  }

  /**
   * @param connection how to authenticate (SASL/IAM on MSK); laid under the consumer's own
   *     settings, so it cannot change offsets, grouping or commits
   */
  public KafkaWorkSource(
      String bootstrapServers,
      Map<String, Object> connection,
      String groupId,
      Collection<String> moduleIds,
      int capacityPerPartition) {
    Objects.requireNonNull(bootstrapServers, "bootstrapServers");
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
      consumers.put(moduleId, new ModuleConsumer(moduleId, bootstrapServers, connection, groupId));
    }
    consumers.values().forEach(ModuleConsumer::start);
  }

  // ------------------------------------------------------------------------------ WorkSource

  @Override
  public synchronized Optional<PendingWork> poll(String moduleId) {
    Map<TopicPartition, PartitionBuffer> parts = buffers.get(moduleId);
    if (parts == null || parts.isEmpty()) {
      return Optional.empty();
    }
    // Round-robin over partitions so one busy partition cannot starve the others.
    List<PartitionBuffer> order = new ArrayList<>(parts.values());
    int start = nextPartition.getOrDefault(moduleId, 0);
    for (int i = 0; i < order.size(); i++) {
      int index = (start + i) % order.size();
      PendingWork w = order.get(index).deque.pollFirst();
      if (w != null) {
        nextPartition.put(moduleId, index + 1);
        return Optional.of(w);
      }
    }
    return Optional.empty();
  }

  @Override
  public synchronized CompletableFuture<Void> arrival(String moduleId) {
    Map<TopicPartition, PartitionBuffer> parts = buffers.get(moduleId);
    if (parts != null && parts.values().stream().anyMatch(b -> !b.deque.isEmpty())) {
      return CompletableFuture.completedFuture(null);
    }
    CompletableFuture<Void> f = new CompletableFuture<>();
    waiters.computeIfAbsent(moduleId, m -> new ArrayList<>()).add(f);
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
      b.deque.addFirst(work);
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
        .mapToInt(b -> b.deque.size())
        .sum();
  }

  /** Records buffered (not in flight) for one partition of a module, or 0 when unassigned. */
  public synchronized int buffered(String moduleId, int partition) {
    PartitionBuffer b =
        buffers
            .getOrDefault(moduleId, Map.of())
            .get(new TopicPartition(topic(moduleId), partition));
    return b == null ? 0 : b.deque.size();
  }

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
      p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(capacityPerPartition));
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
          b.deque.addLast(
              new PendingWork(
                  moduleId, r.key(), r.value(), new Position(tp, r.offset(), b.generation)));
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
      consumer.commitSync(commits);
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
          boolean full = b.deque.size() >= capacityPerPartition;
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
        Set<TopicPartition> gone = Set.copyOf(partitions);
        buffers.get(moduleId).keySet().removeAll(gone);
      }
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
      synchronized (KafkaWorkSource.this) {
        buffers.get(moduleId).keySet().removeAll(Set.copyOf(partitions));
      }
    }
  }
}
