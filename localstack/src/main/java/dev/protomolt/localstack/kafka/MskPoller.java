package dev.protomolt.localstack.kafka;

import dev.protomolt.localstack.lambda.LambdaInvocationException;
import dev.protomolt.localstack.lambda.LambdaResult;
import dev.protomolt.localstack.lambda.LocalLambdaRunner;
import dev.protomolt.localstack.lambda.Pause;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The local MSK event-source mapping: polls its topics and invokes its function with
 * {@code KafkaEvent} batches. Offsets are committed only after the function returns; when it
 * throws, the consumer seeks back to the batch's first offsets and the same records come again
 * after a pause, as Lambda retries a failed Kafka batch until it succeeds.
 */
public final class MskPoller implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(MskPoller.class.getName());
  private static final Duration MAX_RETRY_DELAY = Duration.ofSeconds(30);

  private final MskEventSourceMapping mapping;
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final LocalLambdaRunner lambdas;
  private final String eventSourceArn;
  private final String bootstrapServers;
  private final Pause pause;
  private final Duration firstRetryDelay;
  private Duration retryDelay;

  /** Records polled but not yet in a batch: read past a full batch, or gathered for the next. */
  private final List<ConsumerRecord<byte[], byte[]>> carried = new ArrayList<>();

  private volatile Thread thread;
  private volatile boolean closed;

  /** The outcome of one poll. */
  public enum PollOutcome {
    EMPTY,
    DELIVERED,
    FAILED_WILL_RETRY
  }

  public MskPoller(
      MskEventSourceMapping mapping,
      String bootstrapServers,
      String region,
      LocalLambdaRunner lambdas,
      Pause pause,
      Duration firstRetryDelay) {
    this.mapping = mapping;
    this.bootstrapServers = bootstrapServers;
    this.lambdas = lambdas;
    this.pause = pause;
    this.firstRetryDelay = firstRetryDelay;
    this.retryDelay = firstRetryDelay;
    this.eventSourceArn =
        "arn:aws:kafka:"
            + region
            + ":000000000000:cluster/protomolt-local/"
            + UUID.nameUUIDFromBytes(bootstrapServers.getBytes(StandardCharsets.UTF_8));
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ConsumerConfig.GROUP_ID_CONFIG, mapping.consumerGroupId());
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(mapping.batchSize()));
    props.put(ConsumerConfig.CLIENT_ID_CONFIG, "protomolt-local-esm-" + mapping.functionName());
    this.consumer =
        new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    consumer.subscribe(mapping.topics());
  }

  public MskEventSourceMapping mapping() {
    return mapping;
  }

  /** Polls in a background thread until {@link #close()}. */
  public synchronized void start() {
    if (thread != null) {
      return;
    }
    thread =
        Thread.ofPlatform()
            .daemon()
            .name("msk-poller-" + mapping.functionName())
            .start(this::pollForever);
  }

  /**
   * Polls once (waiting up to {@code timeout} for a first record, then gathering for the
   * mapping's batching window or until the batch is full), invokes the function with the batch,
   * and commits on success or rewinds on failure. Tests call this instead of {@link #start()};
   * the pause after a failure goes through the {@link Pause} given at construction.
   */
  public PollOutcome pollOnce(Duration timeout) throws InterruptedException {
    if (carried.isEmpty()) {
      consumer.poll(timeout).forEach(carried::add);
      if (carried.isEmpty()) {
        return PollOutcome.EMPTY;
      }
    }
    // Lambda gathers records for the batching window after the first one arrives, or until the
    // batch is full: one invocation for what a trickle brings in that time, not one per record.
    long deadline = System.nanoTime() + mapping.batchingWindow().toNanos();
    while (carried.size() < mapping.batchSize()) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        break;
      }
      consumer.poll(Duration.ofNanos(left)).forEach(carried::add);
    }
    // A poll can bring more than the batch holds: the rest waits, in order, for the next batch.
    int size = Math.min(carried.size(), mapping.batchSize());
    List<ConsumerRecord<byte[], byte[]>> batch = new ArrayList<>(carried.subList(0, size));
    carried.subList(0, size).clear();
    String event = KafkaEventJson.of(eventSourceArn, bootstrapServers, batch);
    String error = invoke(event);
    if (error == null) {
      consumer.commitSync(nextOffsets(batch));
      retryDelay = firstRetryDelay;
      return PollOutcome.DELIVERED;
    }
    // The records read past the batch are read again too: the seek goes back before them.
    batch.addAll(carried);
    carried.clear();
    rewind(batch);
    LOG.warning(
        () ->
            "function "
                + mapping.functionName()
                + " failed on a batch of "
                + batch.size()
                + " records from "
                + mapping.topics()
                + "; retrying after "
                + retryDelay
                + ": "
                + error);
    pause.pause(retryDelay);
    Duration doubled = retryDelay.multipliedBy(2);
    retryDelay = doubled.compareTo(MAX_RETRY_DELAY) > 0 ? MAX_RETRY_DELAY : doubled;
    return PollOutcome.FAILED_WILL_RETRY;
  }

  /** The committed offset of each assigned partition (for tests and diagnostics). */
  public Map<TopicPartition, Long> committedOffsets() {
    Map<TopicPartition, Long> out = new HashMap<>();
    consumer
        .committed(consumer.assignment())
        .forEach(
            (tp, offset) -> {
              if (offset != null) {
                out.put(tp, offset.offset());
              }
            });
    return out;
  }

  @Override
  public void close() {
    closed = true;
    Thread running = thread;
    if (running != null) {
      // Wake the poll first and interrupt only a thread still asleep in a retry pause: an
      // interrupted thread's consumer.close() throws and leaves the group uncleanly.
      consumer.wakeup();
      try {
        running.join(Duration.ofSeconds(2));
        if (running.isAlive()) {
          running.interrupt();
          running.join(Duration.ofSeconds(10));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    } else {
      consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
    }
  }

  private void pollForever() {
    try {
      while (!closed) {
        pollOnce(Duration.ofMillis(500));
      }
    } catch (WakeupException | InterruptedException e) {
      // close() wakes the consumer; uncommitted records are delivered again on the next start.
    } catch (RuntimeException e) {
      if (!closed) {
        LOG.log(Level.SEVERE, "MSK poller for " + mapping.functionName() + " stopped", e);
      }
    } finally {
      // Leaving the group must not fail because close() interrupted a retry pause.
      Thread.interrupted();
      consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
    }
  }

  private String invoke(String event) {
    try {
      LambdaResult result = lambdas.invoke(mapping.functionName(), event);
      return switch (result) {
        case LambdaResult.Success success -> null;
        case LambdaResult.Failure failure -> failure.toJson();
      };
    } catch (LambdaInvocationException e) {
      return e.errorCode() + ": " + e.getMessage();
    }
  }

  private static Map<TopicPartition, OffsetAndMetadata> nextOffsets(
      List<ConsumerRecord<byte[], byte[]>> batch) {
    Map<TopicPartition, OffsetAndMetadata> next = new LinkedHashMap<>();
    for (ConsumerRecord<byte[], byte[]> record : batch) {
      next.put(
          new TopicPartition(record.topic(), record.partition()),
          new OffsetAndMetadata(record.offset() + 1));
    }
    return next;
  }

  private void rewind(List<ConsumerRecord<byte[], byte[]>> batch) {
    Map<TopicPartition, Long> first = new LinkedHashMap<>();
    for (ConsumerRecord<byte[], byte[]> record : batch) {
      first.merge(
          new TopicPartition(record.topic(), record.partition()), record.offset(), Math::min);
    }
    first.forEach(consumer::seek);
  }
}
