package dev.protomolt.gateway;

import dev.protomolt.core.store.PurgeEventSink;
import dev.protomolt.names.PlatformTopic;
import dev.protomolt.proto.events.v1.StoragePurgeEvent;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Tombstones announced on the {@code storage-purge} topic, keyed by node id so one stored state is
 * only ever in one purger's batch. A delete through the gateway's PipeDocService door lands here.
 */
public final class KafkaPurgeEvents implements PurgeEventSink, AutoCloseable {

  static final String TOPIC = PlatformTopic.STORAGE_PURGE.topicName();

  private final KafkaProducer<String, byte[]> producer;
  private final Duration acceptTimeout;

  public KafkaPurgeEvents(String bootstrapServers) {
    this(bootstrapServers, Map.of());
  }

  /**
   * @param connection how to authenticate (SASL/IAM on MSK); its keys are laid under the fixed
   *     settings below, so they can never weaken durability or the timeouts
   */
  public KafkaPurgeEvents(String bootstrapServers, Map<String, Object> connection) {
    this(bootstrapServers, connection, Duration.ofSeconds(30));
  }

  KafkaPurgeEvents(String bootstrapServers, Duration acceptTimeout) {
    this(bootstrapServers, Map.of(), acceptTimeout);
  }

  KafkaPurgeEvents(
      String bootstrapServers, Map<String, Object> connection, Duration acceptTimeout) {
    this.acceptTimeout = acceptTimeout;
    int millis = Math.toIntExact(acceptTimeout.toMillis());
    Map<String, Object> config = new HashMap<>(connection);
    config.putAll(
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrapServers,
            // The caller returns "tombstoned" only after the event is durable: all replicas, no
            // dupes.
            ProducerConfig.ACKS_CONFIG,
            "all",
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
            true,
            // A delete request must not hang on a missing broker for Kafka's default minute.
            ProducerConfig.MAX_BLOCK_MS_CONFIG,
            millis,
            // Kafka insists delivery >= linger + request timeout; half the budget per request fits.
            ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
            millis / 2,
            ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
            millis));
    this.producer = new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
  }

  @Override
  public void publish(StoragePurgeEvent event) {
    try {
      producer
          .send(new ProducerRecord<>(TOPIC, event.getNodeId(), event.toByteArray()))
          .get(acceptTimeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(
          "interrupted while publishing purge event " + event.getPurgeEventId(), e);
    } catch (ExecutionException | TimeoutException | KafkaException e) {
      // The row stays tombstoned; the store's reannouncer publishes it again after its grace
      // period.
      throw new IllegalStateException(
          "purge event "
              + event.getPurgeEventId()
              + " for node "
              + event.getNodeId()
              + " was not accepted by "
              + TOPIC
              + ": "
              + e.getMessage(),
          e);
    }
  }

  @Override
  public void close() {
    producer.close();
  }
}
