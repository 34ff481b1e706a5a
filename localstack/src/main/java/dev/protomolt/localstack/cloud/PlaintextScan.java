package dev.protomolt.localstack.cloud;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.sql.DataSource;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.HistoryEvent;

/**
 * Looks for a marker everywhere the local cloud keeps data: every object of every S3 bucket, every
 * row of every PostgreSQL table (as text), every record of every Kafka topic, every item of every
 * DynamoDB table, and every event of every execution's history of every state machine. A marker is
 * matched as its bytes, their base64 (JSON carries bytes so) and their hex (PostgreSQL prints bytea
 * so). Returns the places it was found, e.g. {@code s3:bucket/key}.
 *
 * <p>It lives with the local cloud, not in one module's tests, because every proof that a
 * right-to-be-forgotten body leaves no plaintext behind (the functions' and the whole platform's)
 * must look in the same places the same way.
 */
public final class PlaintextScan {

  /** S3 keeps modification times in whole seconds; a bound is moved this much earlier. */
  private static final long WRITE_TIME_SLACK_SECONDS = 2;

  private final DataSource database;
  private final String kafkaBootstrap;
  private final S3Client s3;
  private final DynamoDbClient dynamo;
  private final SfnClient sfn;
  private final Instant since;

  /** Scans {@code cloud}'s database and brokers, and what the given clients can list. */
  public PlaintextScan(LocalCloud cloud, S3Client s3, DynamoDbClient dynamo, SfnClient sfn) {
    this(cloud.database(), cloud.endpoints().kafkaBootstrapServers(), s3, dynamo, sfn);
  }

  /** Scans {@code database}, the brokers at {@code kafkaBootstrap} and what the clients list. */
  public PlaintextScan(
      DataSource database,
      String kafkaBootstrap,
      S3Client s3,
      DynamoDbClient dynamo,
      SfnClient sfn) {
    this(database, kafkaBootstrap, s3, dynamo, sfn, Instant.EPOCH);
  }

  private PlaintextScan(
      DataSource database,
      String kafkaBootstrap,
      S3Client s3,
      DynamoDbClient dynamo,
      SfnClient sfn,
      Instant since) {
    this.database = database;
    this.kafkaBootstrap = kafkaBootstrap;
    this.s3 = s3;
    this.dynamo = dynamo;
    this.sfn = sfn;
    this.since = since;
  }

  /**
   * The same scan, skipping S3 objects, Kafka records and executions that were all written before
   * {@code start}: a marker made up after it cannot be in them. On a cloud many tests have filled,
   * reading every earlier object and history is most of a scan's time. PostgreSQL rows and
   * DynamoDB items carry no write time, so they are all read still.
   */
  public PlaintextScan writtenSince(Instant start) {
    return new PlaintextScan(
        database, kafkaBootstrap, s3, dynamo, sfn, start.minusSeconds(WRITE_TIME_SLACK_SECONDS));
  }

  /** The places that hold {@code marker} in any of its forms. */
  public Set<String> find(String marker) throws Exception {
    byte[] raw = marker.getBytes(StandardCharsets.UTF_8);
    List<String> forms =
        List.of(marker, Base64.getEncoder().encodeToString(raw), HexFormat.of().formatHex(raw));
    Set<String> found = new TreeSet<>();
    s3.listBuckets()
        .buckets()
        .forEach(
            b ->
                s3.listObjectsV2Paginator(r -> r.bucket(b.name())).contents().stream()
                    .filter(o -> !o.lastModified().isBefore(since))
                    .forEach(
                        o -> {
                          byte[] body =
                              s3.getObjectAsBytes(r -> r.bucket(b.name()).key(o.key()))
                                  .asByteArray();
                          if (contains(new String(body, StandardCharsets.ISO_8859_1), forms)) {
                            found.add("s3:" + b.name() + "/" + o.key());
                          }
                        }));
    try (Connection c = database.getConnection();
        Statement s = c.createStatement()) {
      List<String> tables = new ArrayList<>();
      try (ResultSet r =
          s.executeQuery(
              "SELECT table_schema || '.' || table_name FROM information_schema.tables WHERE"
                  + " table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog',"
                  + " 'information_schema')")) {
        while (r.next()) {
          tables.add(r.getString(1));
        }
      }
      for (String table : tables) {
        try (ResultSet r = s.executeQuery("SELECT t::text FROM " + table + " t")) {
          while (r.next()) {
            if (contains(r.getString(1), forms)) {
              found.add("postgres:" + table);
            }
          }
        }
      }
    }
    Map<String, Object> kafka = new HashMap<>();
    kafka.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafkaBootstrap);
    Set<String> topics;
    try (Admin admin = Admin.create(kafka)) {
      topics = admin.listTopics().names().get();
    }
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafkaBootstrap,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false),
            new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
      List<TopicPartition> partitions = new ArrayList<>();
      for (String topic : topics) {
        for (PartitionInfo p : consumer.partitionsFor(topic)) {
          partitions.add(new TopicPartition(topic, p.partition()));
        }
      }
      consumer.assign(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      Map<TopicPartition, Long> from = new HashMap<>();
      // Kafka refuses a negative timestamp; a bound near the epoch reads from the start.
      long fromMillis = Math.max(0, since.toEpochMilli());
      partitions.forEach(tp -> from.put(tp, fromMillis));
      for (Map.Entry<TopicPartition, OffsetAndTimestamp> first :
          consumer.offsetsForTimes(from).entrySet()) {
        // No record at or after the bound: nothing of this partition is read.
        long offset =
            first.getValue() == null ? end.get(first.getKey()) : first.getValue().offset();
        consumer.seek(first.getKey(), offset);
      }
      while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          String value =
              r.value() == null ? "" : new String(r.value(), StandardCharsets.ISO_8859_1);
          if (contains(value, forms)) {
            found.add("kafka:" + r.topic());
          }
        }
      }
    }
    for (String table : dynamo.listTables().tableNames()) {
      dynamo
          .scanPaginator(b -> b.tableName(table))
          .items()
          .forEach(
              item -> {
                for (AttributeValue v : item.values()) {
                  String text =
                      v.b() != null
                          ? new String(v.b().asByteArray(), StandardCharsets.ISO_8859_1)
                          : v.toString();
                  if (contains(text, forms)) {
                    found.add("dynamodb:" + table);
                  }
                }
              });
    }
    sfn.listStateMachinesPaginator(b -> {})
        .stateMachines()
        .forEach(
            m ->
                sfn
                    .listExecutionsPaginator(b -> b.stateMachineArn(m.stateMachineArn()))
                    .executions()
                    .stream()
                    .filter(e -> e.stopDate() == null || !e.stopDate().isBefore(since))
                    .forEach(
                        e -> {
                          for (HistoryEvent event :
                              sfn.getExecutionHistoryPaginator(
                                      b -> b.executionArn(e.executionArn()))
                                  .events()) {
                            if (contains(unredacted(event), forms)) {
                              found.add("history:" + e.executionArn());
                            }
                          }
                        }));
    return found;
  }

  /**
   * Every field of an SDK model, nested ones included: the SDK's own toString redacts inputs and
   * outputs as sensitive, which is exactly what this scan must read.
   */
  private static String unredacted(Object value) {
    if (value instanceof SdkPojo pojo) {
      StringBuilder out = new StringBuilder("{");
      for (SdkField<?> field : pojo.sdkFields()) {
        out.append(field.memberName())
            .append('=')
            .append(unredacted(field.getValueOrDefault(pojo)));
        out.append(',');
      }
      return out.append('}').toString();
    }
    if (value instanceof java.util.Collection<?> items) {
      return items.stream().map(PlaintextScan::unredacted).toList().toString();
    }
    return String.valueOf(value);
  }

  private static boolean contains(String text, List<String> forms) {
    return forms.stream().anyMatch(text::contains);
  }
}
