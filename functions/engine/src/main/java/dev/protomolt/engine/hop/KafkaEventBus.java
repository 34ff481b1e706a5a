package dev.protomolt.engine.hop;

import dev.protomolt.core.orchestration.EventBus;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * {@link EventBus} on Kafka (MSK in AWS). {@link #publish} waits for the acknowledgement of all
 * in-sync replicas, because the hop's Lambda returns right after it: a dispatch that is not on the
 * topic when the Work state starts waiting would leave the task token waiting for a heartbeat
 * timeout. Any failure is a {@link TransientHopFailure}, so the state machine
 * retries the hop.
 */
public final class KafkaEventBus implements EventBus, AutoCloseable {

  private final Producer<String, byte[]> producer;
  private final Duration timeout;

  public KafkaEventBus(Producer<String, byte[]> producer, Duration timeout) {
    this.producer = producer;
    this.timeout = timeout;
  }

  /** A bus with its own idempotent producer; one per Lambda container, reused across invocations. */
  public static KafkaEventBus connect(String bootstrapServers, Duration timeout) {
    return new KafkaEventBus(durableProducer(bootstrapServers, timeout), timeout);
  }

  /**
   * The engine's one producer shape: idempotent, acknowledged by all in-sync replicas, no linger,
   * and every wait bounded by {@code timeout} so a missing broker fails a call instead of hanging it.
   */
  public static Producer<String, byte[]> durableProducer(
      String bootstrapServers, Duration timeout) {
    return durableProducer(bootstrapServers, timeout, Map.of());
  }

  /**
   * The same producer with {@code connection} settings added (how to reach and authenticate to the
   * brokers, e.g. MSK IAM's SASL settings); they may not change the durability settings.
   */
  public static Producer<String, byte[]> durableProducer(
      String bootstrapServers, Duration timeout, Map<String, Object> connection) {
    Map<String, Object> durable =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrapServers,
            ProducerConfig.ACKS_CONFIG,
            "all",
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
            true,
            ProducerConfig.MAX_BLOCK_MS_CONFIG,
            (int) timeout.toMillis(),
            ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
            (int) timeout.toMillis(),
            ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
            (int) Math.min(timeout.toMillis(), 30_000),
            ProducerConfig.LINGER_MS_CONFIG,
            0);
    Map<String, Object> config = new HashMap<>(connection);
    for (String key : durable.keySet()) {
      if (config.containsKey(key)) {
        throw new IllegalArgumentException(
            "connection settings may not set "
                + key
                + ": the engine's producer durability is fixed");
      }
    }
    config.putAll(durable);
    return new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
  }

  @Override
  public void publish(String topic, String key, byte[] value) {
    String what = "record " + key + " on " + topic;
    try {
      producer
          .send(new ProducerRecord<>(topic, key, value))
          .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TransientHopFailure("interrupted while producing " + what, e);
    } catch (ExecutionException e) {
      throw new TransientHopFailure(
          "producing " + what + " failed: " + e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException | org.apache.kafka.common.errors.TimeoutException e) {
      throw new TransientHopFailure(
          "producing " + what + " was not acknowledged within " + timeout, e);
    }
  }

  @Override
  public void close() {
    producer.close(Duration.ofSeconds(5));
  }
}
