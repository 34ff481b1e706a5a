package dev.protomolt.gateway;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.protomolt.names.PlatformTopic;
import dev.protomolt.proto.events.v1.AccountEvent;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Every gateway task reads {@code account-events} itself, from all partitions, and applies what
 * each event says about its account's activity ({@link EventDeclaredAccountStatus}), so a
 * deactivation reaches every task within one poll ({@link #POLL}) of the event being written, not
 * when the task's cache entry happens to expire (decision 1744). It uses no consumer group: each task must see every event, and there is
 * no progress worth committing — a task that starts later has an empty cache already.
 */
final class AccountEventFeed implements AutoCloseable {

  static final Duration POLL = Duration.ofSeconds(1);
  static final String TOPIC = PlatformTopic.ACCOUNT_EVENTS.topicName();

  private static final System.Logger LOG = System.getLogger(AccountEventFeed.class.getName());

  private final KafkaConsumer<String, byte[]> consumer;
  private final Consumer<AccountEvent> apply;
  private final CompletableFuture<Void> positioned = new CompletableFuture<>();
  private final Thread thread;
  private volatile boolean closing;

  AccountEventFeed(
      String bootstrapServers, Map<String, Object> connection, Consumer<AccountEvent> apply) {
    this.apply = apply;
    Map<String, Object> config = new HashMap<>(connection);
    config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
    this.consumer =
        new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
    this.thread = Thread.ofPlatform().daemon().name("gateway-account-events").unstarted(this::run);
  }

  void start() {
    thread.start();
  }

  /** Completes once the feed reads from the end of every partition: later events are seen. */
  CompletableFuture<Void> positioned() {
    return positioned;
  }

  private void run() {
    try {
      List<TopicPartition> partitions = awaitPartitions();
      if (partitions.isEmpty()) {
        return;
      }
      consumer.assign(partitions);
      consumer.seekToEnd(partitions);
      // seekToEnd is lazy; asking the position fixes it before anyone is told we are positioned.
      partitions.forEach(consumer::position);
      positioned.complete(null);
      while (!closing) {
        for (ConsumerRecord<String, byte[]> record : consumer.poll(POLL)) {
          try {
            apply.accept(AccountEvent.parseFrom(record.value()));
          } catch (InvalidProtocolBufferException e) {
            LOG.log(
                System.Logger.Level.WARNING,
                "account-events offset " + record.offset() + " is not an AccountEvent; skipped");
          }
        }
      }
    } catch (WakeupException e) {
      // close() woke the poll: the feed is done.
    } catch (RuntimeException e) {
      // Without the feed the cache still expires active accounts after five minutes.
      LOG.log(System.Logger.Level.ERROR, "the account-events feed stopped", e);
      positioned.completeExceptionally(e);
    } finally {
      consumer.close();
    }
  }

  /** The topic's partitions, waiting for the stack's topic resource to have created it. */
  private List<TopicPartition> awaitPartitions() {
    while (!closing) {
      List<PartitionInfo> infos = consumer.partitionsFor(TOPIC, Duration.ofSeconds(10));
      if (infos != null && !infos.isEmpty()) {
        return infos.stream().map(p -> new TopicPartition(p.topic(), p.partition())).toList();
      }
      try {
        Thread.sleep(POLL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return List.of();
      }
    }
    return List.of();
  }

  @Override
  public void close() {
    closing = true;
    consumer.wakeup();
    try {
      thread.join(Duration.ofSeconds(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
