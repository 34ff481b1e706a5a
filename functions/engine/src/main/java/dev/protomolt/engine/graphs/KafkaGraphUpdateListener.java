package dev.protomolt.engine.graphs;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.protomolt.core.graph.GraphEventPublisher;
import dev.protomolt.proto.events.v1.GraphUpdateEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Follows {@code graph-updates} from its end and hands every event to {@code sink}, so a process
 * serving {@code SubscribeToGraphUpdates} sees the changes any other process made (the graph-admin
 * function, another gateway task). Every process must see every event, so no consumer group is
 * used: the listener assigns itself all partitions and commits nothing. Subscriptions are live
 * only, so it starts at the end; the graph store stays the system of record.
 *
 * <p>When the topic exists at {@link #start}, the listener is positioned before {@code start}
 * returns: every event published after that is delivered. When it does not exist yet, the
 * listener keeps looking for it and then reads it from its beginning. Partitions added later are
 * picked up within {@link #REFRESH} and read from their beginning.
 */
public final class KafkaGraphUpdateListener implements AutoCloseable {

  /** How often the partition list is read again, and how long a missing topic is waited for. */
  static final Duration REFRESH = Duration.ofSeconds(30);

  private final KafkaConsumer<String, byte[]> consumer;
  private final GraphEventPublisher sink;
  private final Thread thread;
  private final CountDownLatch stopping = new CountDownLatch(1);
  private final Duration timeout;
  private volatile boolean running = true;

  private KafkaGraphUpdateListener(
      KafkaConsumer<String, byte[]> consumer, GraphEventPublisher sink, Duration timeout) {
    this.consumer = consumer;
    this.sink = sink;
    this.timeout = timeout;
    this.thread = Thread.ofPlatform().daemon().name("graph-updates-listener").unstarted(this::run);
  }

  /**
   * Starts following the topic.
   *
   * @param bootstrapServers the brokers
   * @param connection extra client settings (SASL/IAM for MSK); empty locally
   * @param sink receives each event, in order per graph
   * @param timeout how long one metadata call may take
   */
  public static KafkaGraphUpdateListener start(
      String bootstrapServers,
      Map<String, Object> connection,
      GraphEventPublisher sink,
      Duration timeout) {
    Map<String, Object> config = new HashMap<>(connection);
    config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    // Asking for the partitions of a missing topic must not create it with the broker's defaults.
    config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    config.put(ConsumerConfig.CLIENT_ID_CONFIG, "graph-updates-listener");
    KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
    KafkaGraphUpdateListener listener =
        new KafkaGraphUpdateListener(
            consumer, Objects.requireNonNull(sink, "sink"), Objects.requireNonNull(timeout));
    try {
      listener.assign(true);
    } catch (RuntimeException e) {
      consumer.close();
      throw new IllegalStateException(
          "cannot follow " + KafkaGraphEventPublisher.TOPIC + ": " + e.getMessage(), e);
    }
    listener.thread.start();
    return listener;
  }

  /**
   * Assigns every partition not assigned yet. At start the partitions are read from their end
   * (and the position fetched, so "positioned" is true on return); found later, from their start.
   */
  private void assign(boolean fromEnd) {
    List<PartitionInfo> infos = consumer.partitionsFor(KafkaGraphEventPublisher.TOPIC, timeout);
    Set<TopicPartition> assigned = new HashSet<>(consumer.assignment());
    List<TopicPartition> added = new ArrayList<>();
    for (PartitionInfo info : infos == null ? List.<PartitionInfo>of() : infos) {
      TopicPartition tp = new TopicPartition(info.topic(), info.partition());
      if (assigned.add(tp)) {
        added.add(tp);
      }
    }
    if (added.isEmpty()) {
      return;
    }
    consumer.assign(assigned);
    if (fromEnd) {
      consumer.seekToEnd(added);
    } else {
      consumer.seekToBeginning(added);
    }
    for (TopicPartition tp : added) {
      consumer.position(tp, timeout);
    }
  }

  private void run() {
    long nextRefresh = System.nanoTime() + REFRESH.toNanos();
    try {
      while (running) {
        if (consumer.assignment().isEmpty()) {
          // The topic is not there yet: look again after a while, or stop when closed.
          if (stopping.await(REFRESH.toMillis(), TimeUnit.MILLISECONDS)) {
            return;
          }
          refresh();
          continue;
        }
        for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofSeconds(1))) {
          deliver(record);
        }
        if (System.nanoTime() - nextRefresh > 0) {
          refresh();
          nextRefresh = System.nanoTime() + REFRESH.toNanos();
        }
      }
    } catch (WakeupException closed) {
      // close() woke the poll: leave the loop.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      consumer.close();
    }
  }

  private void refresh() {
    try {
      assign(false);
    } catch (WakeupException closed) {
      throw closed;
    } catch (RuntimeException e) {
      // The brokers did not answer this time; the next refresh asks again.
      System.err.println("graph-updates listener: partitions not refreshed: " + e.getMessage());
    }
  }

  private void deliver(ConsumerRecord<String, byte[]> record) {
    GraphUpdateEvent event;
    try {
      event = GraphUpdateEvent.parseFrom(record.value() == null ? new byte[0] : record.value());
    } catch (InvalidProtocolBufferException e) {
      // Nothing is lost by skipping it: the graph store holds the change itself.
      System.err.println(
          "graph-updates listener: record at "
              + record.topic()
              + "-"
              + record.partition()
              + "@"
              + record.offset()
              + " is not a GraphUpdateEvent and was skipped: "
              + e.getMessage());
      return;
    }
    try {
      sink.publish(event);
    } catch (RuntimeException e) {
      // One failing subscriber must not stop the others from hearing about later changes.
      System.err.println(
          "graph-updates listener: delivering "
              + event.getType()
              + " of graph '"
              + event.getGraphId()
              + "' failed: "
              + e.getMessage());
    }
  }

  @Override
  public void close() {
    running = false;
    stopping.countDown();
    consumer.wakeup();
    try {
      thread.join(TimeUnit.SECONDS.toMillis(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
