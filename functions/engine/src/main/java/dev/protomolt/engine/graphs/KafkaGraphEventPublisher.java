package dev.protomolt.engine.graphs;

import dev.protomolt.core.graph.GraphEventPublisher;
import dev.protomolt.engine.hop.KafkaEventBus;
import dev.protomolt.names.PlatformTopic;
import dev.protomolt.proto.events.v1.GraphUpdateEvent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Writes {@link GraphUpdateEvent}s to the {@code graph-updates} topic, keyed by graph id so one
 * graph's events stay in order on one partition. {@link #publish} returns only once the broker has
 * acknowledged the record on all in-sync replicas; any failure is thrown, never swallowed.
 */
public final class KafkaGraphEventPublisher implements GraphEventPublisher, AutoCloseable {

  public static final String TOPIC = PlatformTopic.GRAPH_UPDATES.topicName();

  /** Header carrying the event type, so consumers can filter without parsing the payload. */
  public static final String TYPE_HEADER = "graph-update-type";

  private final Producer<String, byte[]> producer;
  private final Duration timeout;

  public KafkaGraphEventPublisher(Producer<String, byte[]> producer, Duration timeout) {
    this.producer = producer;
    this.timeout = timeout;
  }

  /** A publisher with its own idempotent producer; build one per process and reuse it. */
  public static KafkaGraphEventPublisher connect(String bootstrapServers, Duration timeout) {
    return new KafkaGraphEventPublisher(
        KafkaEventBus.durableProducer(bootstrapServers, timeout), timeout);
  }

  @Override
  public void publish(GraphUpdateEvent event) {
    ProducerRecord<String, byte[]> record =
        new ProducerRecord<>(TOPIC, event.getGraphId(), event.toByteArray());
    record.headers().add(TYPE_HEADER, event.getType().name().getBytes(StandardCharsets.UTF_8));
    String what =
        event.getType().name()
            + " of graph '"
            + event.getGraphId()
            + "' version "
            + event.getVersion();
    try {
      producer.send(record).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while publishing " + what + " to " + TOPIC, e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(
          "publishing " + what + " to " + TOPIC + " failed: " + e.getCause().getMessage(),
          e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException(
          "publishing " + what + " to " + TOPIC + " was not acknowledged within " + timeout, e);
    } catch (org.apache.kafka.common.errors.TimeoutException e) {
      throw new IllegalStateException(
          "publishing "
              + what
              + " to "
              + TOPIC
              + " could not reach the broker within "
              + timeout
              + ": "
              + e.getMessage(),
          e);
    }
  }

  @Override
  public void close() {
    producer.close(Duration.ofSeconds(5));
  }
}
