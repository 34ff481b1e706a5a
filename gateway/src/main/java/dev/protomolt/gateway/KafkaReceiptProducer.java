package dev.protomolt.gateway;

import dev.protomolt.names.PlatformTopic;
import dev.protomolt.proto.events.v1.DocumentIndexedEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Produces receipts to {@code indexing-receipts} keyed by account and document, so one document's
 * receipts stay in order on one partition; waits for every send. A repeated ack can produce a
 * receipt twice; the ledger keys receipts by {@code attempt_id}, so the second changes nothing.
 */
public final class KafkaReceiptProducer implements ReceiptProducer, AutoCloseable {

  private final KafkaProducer<String, byte[]> producer;
  private final Duration timeout;

  public KafkaReceiptProducer(String bootstrap, Map<String, Object> connection, Duration timeout) {
    Map<String, Object> config = new HashMap<>(connection);
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    this.producer = new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
    this.timeout = Objects.requireNonNull(timeout, "timeout");
  }

  @Override
  public void produce(List<DocumentIndexedEvent> receipts) {
    List<Future<RecordMetadata>> sends = new ArrayList<>();
    for (DocumentIndexedEvent receipt : receipts) {
      sends.add(
          producer.send(
              new ProducerRecord<>(
                  PlatformTopic.INDEXING_RECEIPTS.topicName(),
                  receipt.getAccountId() + "/" + receipt.getDocId(),
                  receipt.toByteArray())));
    }
    for (int i = 0; i < sends.size(); i++) {
      String what =
          "receipt "
              + receipts.get(i).getAttemptId()
              + " for doc '"
              + receipts.get(i).getDocId()
              + "' on "
              + PlatformTopic.INDEXING_RECEIPTS.topicName();
      try {
        sends.get(i).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(what + ": interrupted", e);
      } catch (ExecutionException e) {
        throw new IllegalStateException(
            what + " was not accepted: " + e.getCause().getMessage(), e.getCause());
      } catch (TimeoutException e) {
        throw new IllegalStateException(
            what + " was not accepted within " + timeout.toSeconds() + " s", e);
      }
    }
  }

  @Override
  public void close() {
    producer.close();
  }
}
