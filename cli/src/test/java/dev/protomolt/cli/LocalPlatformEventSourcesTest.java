package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.protomolt.localstack.cloud.LocalCloudEndpoints;
import dev.protomolt.module.samples.sink.IndexSinkModule;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.TransportType;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.events.v1.DeletionReason;
import dev.protomolt.proto.events.v1.DocumentDeleted;
import dev.protomolt.testsupport.Eventually;
import dev.protomolt.testsupport.StepFunctionsExecutions;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * The MSK-triggered functions on the shared running local platform: the
 * reclaim of CACHE copies once their hop settles, the purge of an explicitly deleted document, and
 * the sample sink's receipts reaching the indexing ledger. Every document goes the whole way
 * (upload, intake, Step Functions, the four sample modules) through a demo graph whose two middle
 * edges are CACHE, so the stored states at {@code chunk} and {@code embed} are reclaimable while
 * those at {@code parse} and {@code index} are PERSIST.
 */
@ExtendWith(SharedPlatform.Resolver.class)
class LocalPlatformEventSourcesTest {

  static final String ACCOUNT = "harbour";
  static final String DATASOURCE = "logs";
  static final String GRAPH = "cached";

  static LocalPlatform platform;
  static S3Client s3;

  @BeforeAll
  static void provision(SharedPlatform shared) {
    platform = shared.platform();
    platform.provisionAccount(ACCOUNT, DATASOURCE);
    PipelineGraph demo =
        DemoGraph.of(ACCOUNT, DATASOURCE, LocalPlatform.CLUSTER).toBuilder()
            .setGraphId(GRAPH)
            .setName(GRAPH)
            .build();
    PipelineGraph.Builder cached = demo.toBuilder();
    for (int i = 0; i < demo.getEdgesCount(); i++) {
      String to = demo.getEdges(i).getToNodeId();
      if (to.equals(DemoGraph.CHUNK) || to.equals(DemoGraph.EMBED)) {
        cached.setEdges(
            i, demo.getEdges(i).toBuilder().setTransportType(TransportType.TRANSPORT_TYPE_CACHE));
      }
    }
    platform.applyAndActivate(cached.build());
    s3 = shared.s3();
  }

  @AfterAll
  static void closeClient() {
    if (s3 != null) {
      s3.close();
    }
  }

  @Test
  void cacheCopiesAreReclaimedAfterTheirHopsSettleWhilePersistCopiesStay() throws Exception {
    String docId = runToTheSink("tides.txt", "High water at the harbour mouth came at noon.");

    for (String cacheAddress : List.of(DemoGraph.CHUNK, DemoGraph.EMBED)) {
      String reason =
          Eventually.value(
              "the CACHE copy at " + cacheAddress + " purged",
              () -> purgeReason(docId, cacheAddress));
      assertThat(reason).as("why the copy at %s went", cacheAddress).startsWith("RECLAIMED");
      assertThat(status(docId, cacheAddress)).contains("PURGED");
    }
    for (String persistAddress : List.of(DemoGraph.PARSE, DemoGraph.INDEX)) {
      assertThat(status(docId, persistAddress))
          .as("the PERSIST copy at %s", persistAddress)
          .contains("ACTIVE");
      assertThat(purgeReason(docId, persistAddress)).isEmpty();
    }
  }

  @Test
  void aDeletedDocumentIsPurgedWithItsObjectsAndAProofRow() throws Exception {
    String docId = runToTheSink("wrecks.txt", "The wreck of the Annie Jane lies off Vatersay.");
    assertThat(status(docId, DemoGraph.INDEX)).contains("ACTIVE");

    LocalCloudEndpoints ep = platform.endpoints();
    try (KafkaProducer<String, byte[]> producer =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                ep.kafkaBootstrapServers(),
                ProducerConfig.ACKS_CONFIG,
                "all"),
            new StringSerializer(),
            new ByteArraySerializer())) {
      producer
          .send(
              new ProducerRecord<>(
                  "document-deleted",
                  docId,
                  DocumentDeleted.newBuilder()
                      .setDocumentRef(
                          DocumentReference.newBuilder()
                              .setDocId(docId)
                              .setAccountId(ACCOUNT)
                              .setGraphId(GRAPH)
                              .setGraphAddressId(DemoGraph.INDEX)
                              .setKeep(true))
                      .setReason(DeletionReason.DELETION_REASON_USER)
                      .setRequestedBy("test")
                      .build()
                      .toByteArray()))
          .get();
    }

    Eventually.value("the deleted copy purged", () -> purgeReason(docId, DemoGraph.INDEX));
    assertThat(status(docId, DemoGraph.INDEX)).contains("PURGED");
    List<String[]> objects = purgedObjects(docId, DemoGraph.INDEX);
    assertThat(objects).as("the proof names what it deleted").isNotEmpty();
    for (String[] object : objects) {
      assertThat(exists(object[0], object[1])).as("object %s/%s", object[0], object[1]).isFalse();
    }
    assertThat(status(docId, DemoGraph.PARSE))
        .as("only the named copy is deleted")
        .contains("ACTIVE");
  }

  @Test
  void theSinksIndexingReceiptLandsInTheIndexingLedger() throws Exception {
    String docId =
        runToTheSink("lights.txt", "Bell Rock light shows one white flash every five seconds.");

    String outcome =
        Eventually.value(
            "the receipt in document_index_state",
            () ->
                query(
                    "SELECT outcome FROM document_index_state WHERE account_id = ? AND doc_id = ?",
                    ACCOUNT,
                    docId));
    assertThat(outcome).isEqualTo("INDEXED");
    assertThat(
            query(
                "SELECT plan_id || ' ' || index_name || ' ' || node_id FROM"
                    + " document_index_state WHERE account_id = ? AND doc_id = ?",
                ACCOUNT,
                docId))
        .as("plan, index and the stored state indexed")
        .contains(
            IndexSinkModule.INDEX_NAME
                + " "
                + IndexSinkModule.INDEX_NAME
                + " "
                + nodeId(docId, DemoGraph.INDEX));
  }

  /**
   * Uploads {@code text}, waits for its execution to succeed and returns its document id. Tests
   * run one after another, so the upload's admission is the first one recorded after it.
   */
  private static String runToTheSink(String name, String text) throws Exception {
    int before = platform.admissions(ACCOUNT).size();
    s3.putObject(
        b ->
            b.bucket(LocalPlatform.INTAKE_BUCKET)
                .key(ACCOUNT + "/" + DATASOURCE + "/" + name)
                .contentType("text/plain"),
        RequestBody.fromBytes(text.getBytes(StandardCharsets.UTF_8)));
    LocalPlatform.Admission admitted =
        Eventually.value(
            "the upload of " + name + " admitted",
            () ->
                platform.admissions(ACCOUNT).stream()
                    .skip(before)
                    .filter(a -> !a.executionArn().isEmpty())
                    .findFirst());
    ExecutionStatus status =
        StepFunctionsExecutions.awaitClosed(platform.stepFunctions(), admitted.executionArn())
            .status();
    assertThat(status).as("execution of %s", name).isEqualTo(ExecutionStatus.SUCCEEDED);
    return admitted.docId();
  }

  private static Optional<String> status(String docId, String address) {
    return query(
        "SELECT status FROM pipedocs WHERE account_id = ? AND doc_id = ? AND graph_id = ?"
            + " AND graph_address_id = ?",
        ACCOUNT,
        docId,
        GRAPH,
        address);
  }

  private static String nodeId(String docId, String address) {
    return query(
            "SELECT node_id::text FROM pipedocs WHERE account_id = ? AND doc_id = ?"
                + " AND graph_id = ? AND graph_address_id = ?",
            ACCOUNT,
            docId,
            GRAPH,
            address)
        .orElseThrow();
  }

  private static Optional<String> purgeReason(String docId, String address) {
    return query(
        "SELECT reason FROM pipedoc_purges WHERE account_id = ? AND doc_id = ?"
            + " AND graph_id = ? AND graph_address_id = ?",
        ACCOUNT,
        docId,
        GRAPH,
        address);
  }

  /** Bucket and key of every object the proof row says the purge deleted. */
  private static List<String[]> purgedObjects(String docId, String address) throws Exception {
    String bucket =
        query(
                "SELECT bucket FROM pipedoc_purges WHERE account_id = ? AND doc_id = ?"
                    + " AND graph_address_id = ?",
                ACCOUNT,
                docId,
                address)
            .orElseThrow();
    String summary =
        query(
                "SELECT manifest_summary::text FROM pipedoc_purges WHERE account_id = ?"
                    + " AND doc_id = ? AND graph_address_id = ?",
                ACCOUNT,
                docId,
                address)
            .orElseThrow();
    List<String[]> objects = new ArrayList<>();
    collectKeys(new ObjectMapper().readTree(summary), bucket, objects);
    return objects;
  }

  private static void collectKeys(JsonNode node, String bucket, List<String[]> into) {
    if (node.isObject()) {
      JsonNode key = node.get("objectKey") != null ? node.get("objectKey") : node.get("object_key");
      if (key != null && key.isTextual() && !key.asText().isBlank()) {
        into.add(new String[] {bucket, key.asText()});
      }
    }
    node.forEach(child -> collectKeys(child, bucket, into));
  }

  private static boolean exists(String bucket, String key) {
    try {
      s3.headObject(b -> b.bucket(bucket).key(key));
      return true;
    } catch (NoSuchKeyException e) {
      return false;
    } catch (S3Exception e) {
      if (e.statusCode() == 404) {
        return false;
      }
      throw e;
    }
  }

  private static Optional<String> query(String sql, String... args) {
    try (Connection c = platform.database().getConnection();
        PreparedStatement s = c.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        s.setString(i + 1, args[i]);
      }
      try (ResultSet r = s.executeQuery()) {
        return r.next() ? Optional.ofNullable(r.getString(1)) : Optional.empty();
      }
    } catch (SQLException e) {
      throw new IllegalStateException(sql + ": " + e.getMessage(), e);
    }
  }
}
