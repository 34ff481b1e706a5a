package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.assertj.core.api.Assertions.tuple;

import dev.protomolt.core.metrics.MetricRecord;
import dev.protomolt.core.metrics.RecordingMetricsSink;
import dev.protomolt.localstack.cloud.LocalKafka;
import dev.protomolt.names.PlatformMetric;
import dev.protomolt.names.PlatformTopic;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The backlog the stack scales the gateway on, measured against an in-process KRaft broker and
 * read back from a recording sink: records past the group's committed offsets, summed.
 */
class ModuleBacklogTest {

  @TempDir static Path data;

  static LocalKafka kafka;
  static Admin admin;
  static KafkaProducer<String, byte[]> producer;

  @BeforeAll
  static void startKafka() throws Exception {
    kafka = LocalKafka.start(data.resolve("kafka"), 0, 0, false);
    admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    admin
        .createTopics(
            List.of(
                new NewTopic(PlatformTopic.moduleTopic("parser"), 2, (short) 1),
                new NewTopic(PlatformTopic.moduleTopic("chunker"), 1, (short) 1)))
        .all()
        .get(30, TimeUnit.SECONDS);
  }

  @AfterAll
  static void stopKafka() {
    producer.close();
    admin.close();
    kafka.close();
  }

  @Test
  void theTotalAndEachModulesShareAreEmittedWithTheStacksNamespaceAndDimensions() throws Exception {
    produce("parser", 0, 3);
    produce("parser", 1, 2);
    produce("chunker", 0, 2);
    // The group has worked through two of parser's first partition and nothing else.
    admin
        .alterConsumerGroupOffsets(
            "gw-group",
            Map.of(
                new TopicPartition(PlatformTopic.moduleTopic("parser"), 0),
                new OffsetAndMetadata(2)))
        .all()
        .get(30, TimeUnit.SECONDS);
    RecordingMetricsSink metrics = new RecordingMetricsSink("dev");

    long total =
        new ModuleBacklog(admin, "gw-group", List.of("parser", "chunker"), Duration.ofSeconds(30))
            .report(metrics);

    assertThat(total).isEqualTo(5);
    List<MetricRecord> records = metrics.records(PlatformMetric.MODULE_TOPIC_BACKLOG);
    assertThat(records.getFirst().value()).isEqualTo(5);
    assertThat(records.getFirst().dimensions()).isEqualTo(Map.of("Environment", "dev"));
    assertThat(records.subList(1, 3))
        .extracting(
            r -> r.dimensions().get(PlatformMetric.MODULE_SERVICE_DIMENSION), r -> r.value())
        .containsExactly(tuple("parser", 3.0), tuple("chunker", 2.0));
  }

  @Test
  void aModuleWhoseTopicDoesNotExistYetHasNothingWaiting() {
    // The first dispatch to a module creates its topic; until then nothing waits for it, and the
    // operator's status and the scaling metric say so instead of failing.
    ModuleBacklog backlog =
        new ModuleBacklog(admin, "gw-group", List.of("ghost"), Duration.ofSeconds(30));
    assertThat(backlog.measure()).containsExactly(entry("ghost", 0L));
    assertThat(backlog.recordsOn(List.of("pipestream.c.ghost.parse.dlq"))).isZero();
  }

  private static void produce(String module, int partition, int count) throws Exception {
    for (int i = 0; i < count; i++) {
      producer
          .send(
              new ProducerRecord<>(
                  PlatformTopic.moduleTopic(module),
                  partition,
                  module + "-" + i,
                  ("payload " + i).getBytes(StandardCharsets.UTF_8)))
          .get(30, TimeUnit.SECONDS);
    }
  }
}
