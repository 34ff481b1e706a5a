package dev.protomolt.gateway;

import dev.protomolt.localstack.cloud.LocalKafka;
import dev.protomolt.testsupport.Eventually;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kafka source holds the {@link WorkSource} contract on an in-process KRaft broker: one
 * single-partition topic per module (so "oldest first" is the topic's order) and one consumer
 * group per test.
 */
class KafkaWorkSourceContractTest extends WorkSourceContract {

  @TempDir static Path data;

  static LocalKafka kafka;
  static Admin admin;
  static KafkaProducer<String, byte[]> producer;
  static final AtomicInteger MODULES = new AtomicInteger();

  private KafkaWorkSource kafkaSource;

  @BeforeAll
  static void startKafka() {
    kafka = LocalKafka.start(data.resolve("kafka"), 0, 0);
    admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
  }

  @AfterAll
  static void stopKafka() {
    producer.close();
    admin.close();
    kafka.close();
  }

  @Override
  protected WorkSource emptySource(String module, String other) throws Exception {
    admin
        .createTopics(
            List.of(
                new NewTopic(KafkaWorkSource.topic(module), 1, (short) 1),
                new NewTopic(KafkaWorkSource.topic(other), 1, (short) 1)))
        .all()
        .get();
    kafkaSource =
        new KafkaWorkSource(kafka.bootstrapServers(), "g-" + module, List.of(module, other), 16);
    return kafkaSource;
  }

  @Override
  protected void arrive(String module, String key) throws Exception {
    int before = kafkaSource.buffered(module);
    producer
        .send(
            new ProducerRecord<>(
                KafkaWorkSource.topic(module),
                0,
                key,
                payloadOf(key).getBytes(StandardCharsets.UTF_8)))
        .get();
    Eventually.until(
        "record " + key + " fetched for " + module,
        () -> kafkaSource.buffered(module) == before + 1);
  }

  @Override
  protected String uniqueModuleId(String stem) {
    return "contract-" + stem + "-" + MODULES.incrementAndGet();
  }
}
