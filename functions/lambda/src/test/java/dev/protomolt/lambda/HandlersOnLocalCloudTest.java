package dev.protomolt.lambda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.protomolt.core.orchestration.StateMachineNames;
import dev.protomolt.core.parts.Sha256Hex;
import dev.protomolt.core.routing.InlineBudget;
import dev.protomolt.core.rtbf.DataKeyGoneException;
import dev.protomolt.core.rtbf.SealedStreams;
import dev.protomolt.core.store.DriveKind;
import dev.protomolt.core.tracing.TraceSpan;
import dev.protomolt.lambda.wiring.ContainerClients;
import dev.protomolt.lambda.wiring.FunctionEnvironment;
import dev.protomolt.lambda.wiring.FunctionWiring;
import dev.protomolt.localstack.cloud.PlaintextScan;
import dev.protomolt.localstack.lambda.LambdaResult;
import dev.protomolt.names.PlatformMetric;
import dev.protomolt.proto.data.v1.Blob;
import dev.protomolt.proto.data.v1.BlobBag;
import dev.protomolt.proto.data.v1.OwnershipContext;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.StepExecutionRecord;
import dev.protomolt.proto.data.v1.StreamMetadata;
import dev.protomolt.proto.events.v1.AccountEvent;
import dev.protomolt.proto.events.v1.AccountEventType;
import dev.protomolt.proto.events.v1.DlqMessage;
import dev.protomolt.proto.events.v1.StoragePurgeEvent;
import dev.protomolt.proto.module.v1.WorkDispatch;
import dev.protomolt.repository.postgres.PostgresDriveDirectory;
import dev.protomolt.testsupport.StepFunctionsExecutions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Every handler against the local cloud, invoked with the JSON fixtures of real AWS payloads
 * through the local Lambda runner, the way the local Step Functions runtime, S3 notifier and MSK
 * poller call them. The handlers are built by the production wiring from {@code PROTOMOLT_*}
 * variables pointing at the local endpoints.
 */
class HandlersOnLocalCloudTest {

  static final Duration PATIENCE = Duration.ofSeconds(60);

  @TempDir static Path dataDir;
  static LocalCloudFunctions local;
  static JsonNode accountEventsReply;
  // The rules the fixture batch ensured, before any test redelivers an account event.
  static List<String> rulesAfterProvisioning;
  static JsonNode activation;

  @BeforeAll
  static void start() throws Exception {
    local = new LocalCloudFunctions(dataDir, LocalCloudFunctions.fixtureTenancy());
    accountEventsReply = invoke("account-events", Fixtures.text("msk-account-events.json"));
    rulesAfterProvisioning = List.copyOf(local.intakeRules);
    ObjectNode create = EventJson.reply();
    create.put("operation", "create");
    create.set("graph", EventJson.MAPPER.readTree(Fixtures.text("graphs/lambda-echo.json")));
    invoke("graph-admin", create.toString());
    activation =
        invoke(
            "graph-admin",
            "{\"operation\":\"activate\",\"graphId\":\"lambda-echo\",\"clusterId\":\"local\",\"version\":1}");
  }

  @AfterAll
  static void stop() {
    if (local != null) {
      local.close();
    }
  }

  /** Invokes {@code function} through the local runner; a function error fails the call. */
  static JsonNode invoke(String function, String event) throws Exception {
    LambdaResult result = local.cloud.lambdas().invoke(function, event);
    if (result instanceof LambdaResult.Failure failure) {
      throw new AssertionError(function + " failed: " + failure.toJson());
    }
    return EventJson.MAPPER.readTree(((LambdaResult.Success) result).payload());
  }

  static LambdaResult.Failure failure(String function, String event) {
    LambdaResult result = local.cloud.lambdas().invoke(function, event);
    assertThat(result)
        .as("%s should have failed", function)
        .isInstanceOf(LambdaResult.Failure.class);
    return (LambdaResult.Failure) result;
  }

  @Test
  void accountEventsFromAnMskBatchProvisionTheDrives() {
    assertThat(accountEventsReply.path("records").asInt()).isEqualTo(1);
    assertThat(accountEventsReply.path("report").path("intakeRulesEnsured").asInt()).isEqualTo(1);
    assertThat(rulesAfterProvisioning).containsExactly("protomolt-intake:acme");
    PostgresDriveDirectory drives = new PostgresDriveDirectory(local.cloud.database());
    assertThat(drives.find("acme", DriveKind.INTAKE))
        .hasValueSatisfying(
            d -> {
              assertThat(d.bucket()).isEqualTo("protomolt-intake");
              assertThat(d.prefix()).isEqualTo("_intake-copies/acme/");
            });
    assertThat(drives.find("acme", DriveKind.PIPELINE))
        .hasValueSatisfying(d -> assertThat(d.bucket()).isEqualTo("protomolt-store"));
  }

  @Test
  void graphAdminActivatesAVersionAndRecordsItsStateMachineVersion() {
    assertThat(activation.path("version").asLong()).isEqualTo(1);
    assertThat(activation.path("versionArn").asText())
        .endsWith(":1")
        .startsWith(activation.path("machineArn").asText());
  }

  @Test
  void anS3NotificationStartsAnExecutionThatRunsThroughEveryHopHandler() throws Exception {
    // The fixture's key is URL-encoded as S3 sends it; the object exists under the decoded key.
    String key = "acme/acme-uploads/reports/quarterly report (final).txt";
    S3Client s3 = intakeClient();
    s3.putObject(
        b -> b.bucket("protomolt-intake").key(key),
        RequestBody.fromString("Revenue grew in every region this quarter."));
    JsonNode reply = invoke("intake", Fixtures.text("s3-object-created-put.json"));

    JsonNode admission = reply.path("admissions").get(0);
    assertThat(admission.path("key").asText()).isEqualTo(key);
    assertThat(admission.path("graphId").asText()).isEqualTo("lambda-echo");
    assertThat(admission.path("outcome").asText()).isEqualTo("STARTED");
    String executionArn = admission.path("executionArn").asText();

    // The test plays the echo module: it takes the dispatch the handler produced and answers it.
    WorkDispatch work = nextDispatch(w -> w.getExecutionArn().equals(executionArn));
    ObjectNode ack = EventJson.reply();
    ack.put("workUnitId", work.getWorkUnitId());
    ack.put("outcome", "CONTINUE");
    ack.set("stream", EventJson.MAPPER.readTree(JsonFormat.printer().print(work.getStream())));
    SfnClient sfn = local.clients.sfn();
    sfn.sendTaskSuccess(b -> b.taskToken(work.getTaskToken()).output(ack.toString()));

    assertThat(awaitClosed(sfn, executionArn)).isEqualTo(ExecutionStatus.SUCCEEDED);

    // One trace (decision 1793): intake is its root, the dispatch record carries its context, and
    // every hop function and the intake copy's save are its children, as the local collector kept
    // them (each function flushed before it returned).
    List<TraceSpan> trace = local.cloud.traces().traceOf(admission.path("docId").asText());
    TraceSpan root =
        trace.stream().filter(sp -> sp.name().equals("intake")).findFirst().orElseThrow();
    assertThat(root.parentSpanId()).isEmpty();
    assertThat(trace).allSatisfy(sp -> assertThat(sp.traceId()).isEqualTo(root.traceId()));
    assertThat(work.getStream().getMetadata().getTraceId()).isEqualTo(root.traceId());
    assertThat(work.getStream().getMetadata().getTraceparent()).contains(root.spanId());
    // The echo node has no filter: intake's Complete prepares it, in a span of its own inside the
    // complete span (decision 1832).
    java.util.Set<String> completes =
        trace.stream()
            .filter(sp -> sp.name().equals("complete"))
            .map(TraceSpan::spanId)
            .collect(java.util.stream.Collectors.toSet());
    assertThat(trace)
        .as("a prepare span under complete")
        .anySatisfy(
            sp -> {
              assertThat(sp.name()).isEqualTo("prepare");
              assertThat(completes).contains(sp.parentSpanId());
            });
    // Intake's Complete hands echo's work on itself (decision 1843): no dispatch function runs.
    assertThat(trace).extracting(TraceSpan::name).doesNotContain("dispatch");
    for (String hop : List.of("store.save", "complete")) {
      assertThat(trace)
          .as("a %s span under intake", hop)
          .anySatisfy(
              sp -> {
                assertThat(sp.name()).isEqualTo(hop);
                assertThat(sp.parentSpanId()).isEqualTo(root.spanId());
              });
    }
    assertThat(trace)
        .filteredOn(sp -> sp.name().equals("prepare"))
        .allSatisfy(sp -> assertThat(sp.status()).isNotEqualTo("ERROR"));

    // A repeated notification converges on the same execution.
    JsonNode again = invoke("intake", Fixtures.text("s3-object-created-put.json"));
    JsonNode converged = again.path("admissions").get(0);
    assertThat(converged.path("outcome").asText()).isEqualTo("CONVERGED");
    assertThat(executionArn).endsWith(":" + converged.path("executionName").asText());
  }

  @Test
  void anUploadDeclaredRightToBeForgottenRunsInlineWithNoCopyAndIsDeletedWithItsProof()
      throws Exception {
    String key = "acme/acme-uploads/forget/me.txt";
    String event = createdEvent(key);
    S3Client s3 = intakeClient();
    Set<String> before = storedKeys(s3);
    s3.putObject(
        b -> b.bucket("protomolt-intake").key(key).metadata(Map.of("protomolt-rtbf", "true")),
        RequestBody.fromBytes(FORGET));

    JsonNode admission = invoke("intake", event).path("admissions").get(0);
    assertThat(admission.path("outcome").asText()).isEqualTo("STARTED");
    String docId = admission.path("docId").asText();
    // The upload is gone once an execution has the document, and its proof is recorded.
    assertThatThrownBy(() -> s3.headObject(b -> b.bucket("protomolt-intake").key(key)))
        .isInstanceOf(NoSuchKeyException.class);
    assertThat(
            rows(
                "SELECT row_kind || ' ' || reason || ' ' || bucket || ' ' || checksum FROM"
                    + " pipedoc_purges WHERE doc_id = ?",
                docId))
        .containsExactly("UPLOAD RTBF protomolt-intake " + Sha256Hex.of(FORGET));

    WorkDispatch work =
        nextDispatch(w -> w.getExecutionArn().equals(admission.path("executionArn").asText()));
    // The dispatch record holds only the sealed body; a reader with the data key (the gateway,
    // played here by the test) opens it in memory, so the module still sees the plaintext.
    assertThat(work.getStream().hasSealedDocument()).isTrue();
    assertThat(work.getStream().getMetadata().getDataKeyId())
        .isEqualTo(SealedStreams.intakeKeyId("acme", docId));
    SealedStreams seals = new SealedStreams(local.clients.dataKeys());
    PipeDoc opened = seals.open(work.getStream()).getDocument();
    assertThat(opened.getOwnership().getRightToBeForgotten()).isTrue();
    assertThat(opened.getBlobBag().getBlob().getData().toByteArray()).isEqualTo(FORGET);
    answer(work);
    assertThat(awaitClosed(local.clients.sfn(), admission.path("executionArn").asText()))
        .isEqualTo(ExecutionStatus.SUCCEEDED);
    // The terminal hop destroyed the data key: the ciphertext in history can never be read again.
    assertThatThrownBy(() -> seals.open(work.getStream()))
        .isInstanceOf(DataKeyGoneException.class)
        .hasMessageContaining("data key '" + SealedStreams.intakeKeyId("acme", docId) + "'")
        .hasMessageContaining("can no longer be read");
    assertThat(rows("SELECT key_id FROM rtbf_data_keys WHERE key_id LIKE '%' || ?", docId))
        .isEmpty();
    // No intake copy, no staged copy: nothing new in the store or under _intake-copies/, no row.
    assertThat(storedKeys(s3)).isEqualTo(before);
    assertThat(rows("SELECT node_id::text FROM pipedocs WHERE doc_id = ?", docId)).isEmpty();
    // A redelivered notification finds the proof and admits nothing.
    assertThat(invoke("intake", event).path("admissions")).isEmpty();
    // Its plaintext is nowhere: no S3 object, row, record, item or execution history holds it,
    // while the same scan finds a control marker in each of them.
    PlaintextScan scan = plaintextScan();
    assertThat(scan.find(RTBF_MARKER)).isEmpty();
    Set<String> control = placeControlMarker();
    assertThat(scan.find(CONTROL_MARKER)).containsAll(control);
  }

  /**
   * A datasource declared right-to-be-forgotten by its account event (decision 1512): an upload
   * without metadata, and one whose metadata says {@code false}, take the metadata-declared path
   * exactly: no copy, a sealed inline body, the upload deleted with its proof, and no plaintext
   * anywhere once the walk ends.
   */
  @Test
  void everyUploadOfAForgettableDatasourceIsForgottenWhateverItsMetadataSays() throws Exception {
    // The fixture's provisioning event for acme, redelivered declaring a forgettable datasource.
    AccountEvent declare =
        AccountEvent.parseFrom(
                Base64.getDecoder()
                    .decode(
                        EventJson.MAPPER
                            .readTree(Fixtures.text("msk-account-events.json"))
                            .path("records")
                            .path("account-events-0")
                            .path(0)
                            .path("value")
                            .asText()))
            .toBuilder()
            .addDatasourceIds("acme-forgettable")
            .addForgettableDatasourceIds("acme-forgettable")
            .build();
    assertThat(invoke("account-events", accountEvent(declare)).path("records").asInt())
        .isEqualTo(1);
    // A datasource the event does not bind cannot be declared forgettable.
    assertThat(
            failure(
                    "account-events",
                    accountEvent(
                        declare.toBuilder().clearDatasourceIds().addDatasourceIds("x").build()))
                .errorMessage())
        .contains(
            "account event [0] forgettable_datasource_ids[0] must be one of the event's"
                + " datasource_ids, got 'acme-forgettable'");
    ObjectNode create = EventJson.reply();
    create.put("operation", "create");
    ObjectNode graph =
        (ObjectNode) EventJson.MAPPER.readTree(Fixtures.text("graphs/lambda-echo.json"));
    graph.put("graphId", "lambda-forget");
    ((ObjectNode) graph.path("nodes").get(0)).put("datasourceId", "acme-forgettable");
    create.set("graph", graph);
    invoke("graph-admin", create.toString());
    invoke(
        "graph-admin",
        "{\"operation\":\"activate\",\"graphId\":\"lambda-forget\",\"clusterId\":\"local\","
            + "\"version\":1}");

    S3Client s3 = intakeClient();
    Set<String> before = storedKeys(s3);
    for (Map<String, String> metadata :
        List.of(Map.<String, String>of(), Map.of("protomolt-rtbf", "false"))) {
      String key = "acme/acme-forgettable/wide/" + (metadata.isEmpty() ? "bare" : "false") + ".txt";
      s3.putObject(
          b -> b.bucket("protomolt-intake").key(key).metadata(metadata),
          RequestBody.fromBytes(FORGET));
      JsonNode admission = invoke("intake", createdEvent(key)).path("admissions").get(0);
      assertThat(admission.path("outcome").asText()).as(key).isEqualTo("STARTED");
      String docId = admission.path("docId").asText();
      assertThatThrownBy(() -> s3.headObject(b -> b.bucket("protomolt-intake").key(key)))
          .isInstanceOf(NoSuchKeyException.class);
      assertThat(
              rows("SELECT row_kind || ' ' || reason FROM pipedoc_purges WHERE doc_id = ?", docId))
          .containsExactly("UPLOAD RTBF");
      WorkDispatch work =
          nextDispatch(w -> w.getExecutionArn().equals(admission.path("executionArn").asText()));
      assertThat(work.getStream().hasSealedDocument()).as(key).isTrue();
      answer(work);
      assertThat(awaitClosed(local.clients.sfn(), admission.path("executionArn").asText()))
          .isEqualTo(ExecutionStatus.SUCCEEDED);
      assertThat(rows("SELECT node_id::text FROM pipedocs WHERE doc_id = ?", docId)).isEmpty();
    }
    assertThat(storedKeys(s3)).isEqualTo(before);
    // The scan that finds a control marker in every store (the metadata-declared case above)
    // finds this body in none of them.
    assertThat(plaintextScan().find(RTBF_MARKER)).isEmpty();
  }

  @Test
  void aForgettableUploadThatCannotTravelInlineOrSaysNeitherTrueNorFalseIsRefusedAndKept()
      throws Exception {
    String key = "acme/acme-uploads/forget/refused.txt";
    String event = createdEvent(key);
    S3Client s3 = intakeClient();
    s3.putObject(
        b -> b.bucket("protomolt-intake").key(key).metadata(Map.of("protomolt-rtbf", "yes")),
        RequestBody.fromString("Maybe forget."));
    assertThat(failure("intake", event).errorMessage())
        .contains(
            "metadata x-amz-meta-protomolt-rtbf must be 'true' or 'false', got 'yes'; nothing was"
                + " admitted and the upload is kept");
    assertThat(s3.headObject(b -> b.bucket("protomolt-intake").key(key)).contentLength())
        .isEqualTo(13);

    s3.putObject(
        b -> b.bucket("protomolt-intake").key(key).metadata(Map.of("protomolt-rtbf", "true")),
        RequestBody.fromBytes(new byte[300 * 1024]));
    assertThat(failure("intake", event).errorMessage())
        .contains("is declared right-to-be-forgotten (x-amz-meta-protomolt-rtbf: true)")
        .contains("over the inline limit of " + InlineBudget.DEFAULT_BYTES)
        .contains("the upload is kept");
    assertThat(s3.headObject(b -> b.bucket("protomolt-intake").key(key)).contentLength())
        .isEqualTo(300 * 1024);
    String docId = StateMachineNames.hashOf("intake", "protomolt-intake", key);
    assertThat(rows("SELECT node_id::text FROM pipedocs WHERE doc_id = ?", docId)).isEmpty();
    assertThat(rows("SELECT doc_id FROM intake_admissions WHERE doc_id = ?", docId)).isEmpty();
  }

  private static final String RTBF_MARKER = "forget-me-marker-7c41e9d2";
  private static final String CONTROL_MARKER = "control-marker-5b2d88a1";
  private static final byte[] FORGET =
      ("Forget this sentence: " + RTBF_MARKER).getBytes(StandardCharsets.UTF_8);

  private static PlaintextScan plaintextScan() {
    return new PlaintextScan(
        local.cloud, intakeClient(), local.clients.dynamo(), local.clients.sfn());
  }

  /**
   * Puts {@link #CONTROL_MARKER} in plaintext where each store keeps data: an upload without the
   * declaration, a row, an item, and an execution started with an inline body that is not
   * right-to-be-forgotten, run to its end (so its dispatch and history carry it); returns the
   * places the scan must find it.
   */
  private static Set<String> placeControlMarker() throws Exception {
    String key = "acme/acme-uploads/control/kept.txt";
    intakeClient()
        .putObject(
            b -> b.bucket("protomolt-intake").key(key), RequestBody.fromString(CONTROL_MARKER));
    try (java.sql.Connection c = local.cloud.database().getConnection();
        java.sql.Statement st = c.createStatement()) {
      st.execute("CREATE TABLE IF NOT EXISTS scan_control (note TEXT)");
      st.execute("INSERT INTO scan_control VALUES ('" + CONTROL_MARKER + "')");
    }
    local
        .clients
        .dynamo()
        .createTable(
            b ->
                b.tableName("scan-control")
                    .keySchema(
                        KeySchemaElement.builder().attributeName("id").keyType("HASH").build())
                    .attributeDefinitions(
                        AttributeDefinition.builder()
                            .attributeName("id")
                            .attributeType("S")
                            .build())
                    .billingMode("PAY_PER_REQUEST"));
    // The local DynamoDB, as AWS, creates a table asynchronously: writes wait for it to exist.
    local.clients.dynamo().waiter().waitUntilTableExists(b -> b.tableName("scan-control"));
    local
        .clients
        .dynamo()
        .putItem(
            b ->
                b.tableName("scan-control")
                    .item(Map.of("id", AttributeValue.fromS(CONTROL_MARKER))));
    try (Admin admin =
            Admin.create(
                Map.<String, Object>of(
                    AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                    local.cloud.endpoints().kafkaBootstrapServers()));
        KafkaProducer<String, String> producer =
            new KafkaProducer<>(
                Map.<String, Object>of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                    local.cloud.endpoints().kafkaBootstrapServers()),
                new StringSerializer(),
                new StringSerializer())) {
      admin.createTopics(List.of(new NewTopic("scan-control", 1, (short) 1))).all().get();
      producer.send(new ProducerRecord<>("scan-control", "control", CONTROL_MARKER)).get();
    }
    PipeStream inline =
        PipeStream.newBuilder()
            .setStreamId("control-doc")
            .setDocument(
                PipeDoc.newBuilder()
                    .setDocId("control-doc")
                    .setOwnership(OwnershipContext.newBuilder().setAccountId("acme"))
                    .setBlobBag(
                        BlobBag.newBuilder()
                            .setBlob(
                                Blob.newBuilder()
                                    .setBlobId("original")
                                    .setData(ByteString.copyFromUtf8(CONTROL_MARKER)))))
            .setMetadata(
                StreamMetadata.newBuilder()
                    .setAccountId("acme")
                    .setDatasourceId("acme-uploads")
                    .setGraphId("lambda-echo")
                    .setGraphVersion(1))
            .build();
    String input = "{\"node\":\"intake\",\"stream\":" + JsonFormat.printer().print(inline) + "}";
    String executionArn =
        local
            .clients
            .sfn()
            .startExecution(
                b ->
                    b.stateMachineArn(activation.path("versionArn").asText())
                        .name("control-" + UUID.randomUUID())
                        .input(input))
            .executionArn();
    answer(nextDispatch(w -> w.getExecutionArn().equals(executionArn)));
    assertThat(awaitClosed(local.clients.sfn(), executionArn)).isEqualTo(ExecutionStatus.SUCCEEDED);
    return Set.of(
        "s3:protomolt-intake/" + key,
        "postgres:public.scan_control",
        "dynamodb:scan-control",
        "kafka:scan-control",
        "history:" + executionArn);
  }

  /** The fixture's ObjectCreated notification naming {@code key} (no character S3 encodes). */
  private static String createdEvent(String key) {
    return Fixtures.text("s3-object-created-put.json")
        .replace("acme/acme-uploads/reports/quarterly+report+%28final%29.txt", key);
  }

  /** The container's shared client for acme's intake drive; the container owns it. */
  private static S3Client intakeClient() {
    return local
        .clients
        .s3()
        .forDrive(
            new PostgresDriveDirectory(local.cloud.database())
                .find("acme", DriveKind.INTAKE)
                .orElseThrow());
  }

  /** Every key of the store bucket and every intake copy. */
  private static Set<String> storedKeys(S3Client s3) {
    Set<String> keys = new TreeSet<>();
    s3.listObjectsV2Paginator(b -> b.bucket("protomolt-store"))
        .contents()
        .forEach(o -> keys.add("store/" + o.key()));
    s3.listObjectsV2Paginator(b -> b.bucket("protomolt-intake").prefix("_intake-copies/"))
        .contents()
        .forEach(o -> keys.add("intake/" + o.key()));
    return keys;
  }

  private static List<String> rows(String sql, String docId) throws java.sql.SQLException {
    List<String> out = new ArrayList<>();
    try (java.sql.Connection c = local.cloud.database().getConnection();
        java.sql.PreparedStatement s = c.prepareStatement(sql)) {
      s.setString(1, docId);
      try (java.sql.ResultSet r = s.executeQuery()) {
        while (r.next()) {
          out.add(r.getString(1));
        }
      }
    }
    return out;
  }

  @Test
  void theDeadLetterDoorListsTheGraphsDlqTopicsAndRefusesNamingTheField() throws Exception {
    JsonNode listed =
        invoke(
            "dlq-admin",
            "{\"action\":\"list\",\"accountId\":\"acme\",\"graphId\":\"lambda-echo\"}");
    assertThat(listed.path("deadLetters").isArray()).isTrue();
    assertThat(listed.path("deadLetters")).isEmpty();
    assertThat(
            failure(
                    "dlq-admin",
                    "{\"action\":\"show\",\"accountId\":\"acme\",\"graphId\":\"lambda-echo\","
                        + "\"dlqId\":\"nope\"}")
                .errorMessage())
        .startsWith("dlqId: no dead letter 'nope' on graph 'lambda-echo'");
    assertThat(
            failure(
                    "dlq-admin",
                    "{\"action\":\"list\",\"accountId\":\"other\",\"graphId\":\"lambda-echo\"}")
                .errorMessage())
        .startsWith("accountId: graph 'lambda-echo' is not a graph of account 'other'");
    assertThat(
            failure(
                    "dlq-admin",
                    "{\"action\":\"purge\",\"accountId\":\"acme\",\"graphId\":\"lambda-echo\"}")
                .errorMessage())
        .contains("action must be list, show or reprocess, got 'purge'");
  }

  /** The echo module's CONTINUE ack, as the gateway sends it. */
  private static void answer(WorkDispatch work) throws Exception {
    ObjectNode ack = EventJson.reply();
    ack.put("workUnitId", work.getWorkUnitId());
    ack.put("outcome", "CONTINUE");
    ack.set("stream", EventJson.MAPPER.readTree(JsonFormat.printer().print(work.getStream())));
    local
        .clients
        .sfn()
        .sendTaskSuccess(b -> b.taskToken(work.getTaskToken()).output(ack.toString()));
  }

  @Test
  void stepFunctionsTaskInputsRunPrepareDispatchCompleteAndDlq() throws Exception {
    JsonNode prepared = invoke("prepare", Fixtures.text("sfn-prepare.json"));
    assertThat(prepared.path("action").asText()).isEqualTo("RUN");
    assertThat(prepared.path("workUnitId").asText()).hasSize(64);
    assertThat(prepared.path("stream").path("document").path("docId").asText())
        .isEqualTo("doc-fixture-1");

    JsonNode dispatchInput = EventJson.MAPPER.readTree(Fixtures.text("sfn-dispatch.json"));
    invoke("dispatch", dispatchInput.toString());
    WorkDispatch work =
        nextDispatch(w -> w.getTaskToken().equals(dispatchInput.path("taskToken").asText()));
    assertThat(work.getWorkUnitId()).isEqualTo(dispatchInput.path("workUnitId").asText());
    assertThat(work.getModuleId()).isEqualTo("echo");
    assertThat(work.getHeartbeatSeconds()).isEqualTo(30);

    JsonNode completed = invoke("complete", Fixtures.text("sfn-complete.json"));
    assertThat(completed.path("destinationCount").asInt()).isZero();
    assertThat(completed.path("workUnitId").asText())
        .isEqualTo(dispatchInput.path("workUnitId").asText());
    // The hop's step record went to pipeline-events, one hop after the fixture's hop count of 1.
    StepExecutionRecord step =
        StepExecutionRecord.parseFrom(
            nextRecord(
                    "pipeline-events",
                    r -> r.key().equals(work.getWorkUnitId() + ":STEP_STATUS_SUCCESS"))
                .value());
    assertThat(step.getHopNumber()).isEqualTo(2);
    assertThat(step.getNodeId()).isEqualTo("echo");

    JsonNode dead = invoke("dlq", Fixtures.text("sfn-dlq.json"));
    String dlqId = dead.path("dlqId").asText();
    DlqMessage message =
        DlqMessage.parseFrom(
            nextRecord("pipestream.local.lambda-echo.echo.dlq", r -> r.key().equals(dlqId))
                .value());
    assertThat(message.getError().getCode()).isEqualTo("Module.Retryable");
    assertThat(message.getNodeId()).isEqualTo("echo");
    assertThat(message.getExecutionArn()).endsWith(":fixture-execution-1");
    assertThat(local.metrics.records(PlatformMetric.DEAD_LETTERS_PUBLISHED))
        .as("the dead-letter alarm's metric")
        .isNotEmpty()
        .allSatisfy(
            r -> assertThat(r.dimensions()).containsEntry("Environment", LocalCloudFunctions.ENV));
  }

  @Test
  void aPurgeBatchEmitsItsFailuresForTheAlarmZeroIncluded() throws Exception {
    StoragePurgeEvent gone =
        StoragePurgeEvent.newBuilder()
            .setPurgeEventId("purge-metric-1")
            .setNodeId(UUID.randomUUID().toString())
            .build();
    String event =
        Fixtures.text("msk-document-deleted.json")
            .replace("\"topic\": \"document-deleted\"", "\"topic\": \"storage-purge\"")
            .replace("document-deleted-2", "storage-purge-2")
            .replaceAll(
                "\"value\": \"[^\"]*\"",
                "\"value\": \"" + Base64.getEncoder().encodeToString(gone.toByteArray()) + "\"");
    int before = local.metrics.records(PlatformMetric.PURGE_FAILURES).size();

    JsonNode reply = invoke("purge", event);

    assertThat(reply.path("report").path("voided")).hasSize(1);
    assertThat(local.metrics.records(PlatformMetric.PURGE_FAILURES))
        .hasSize(before + 1)
        .last()
        .satisfies(
            r -> {
              assertThat(r.value()).isZero();
              assertThat(r.dimensions()).containsEntry("Environment", LocalCloudFunctions.ENV);
            });
  }

  @Test
  void indexingReceiptsFromAnMskBatchFeedTheLedgerAndSettlement() throws Exception {
    JsonNode ledger = invoke("indexing-ledger", Fixtures.text("msk-indexing-receipts.json"));
    assertThat(ledger.path("records").asInt()).isEqualTo(2);
    assertThat(ledger.path("report").findValuesAsText("kind"))
        .containsExactly("APPLIED", "APPLIED");

    JsonNode settled = invoke("settlement", Fixtures.text("msk-indexing-receipts.json"));
    JsonNode report = settled.path("report");
    // The first receipt names a stored state the ledger does not hold; the second failed.
    assertThat(report.get(0).path("settlement").path("settled").asBoolean()).isFalse();
    assertThat(report.get(0).path("settlement").path("detail").asText())
        .contains("no live stored state");
    assertThat(report.get(1).path("settlement").path("detail").asText())
        .contains("INDEX_OUTCOME_FAILED_RETRYABLE never settles");
  }

  @Test
  void reclaimRequestsAndDeletesFromMskReachTheStore() throws Exception {
    // Both name a copy the store never held: the services count it, nothing fails.
    JsonNode reclaimed = invoke("reclaim", Fixtures.text("msk-reclaim-requests.json"));
    assertThat(reclaimed.path("reclaimed").path("alreadyGone").asInt()).isEqualTo(1);
    assertThat(reclaimed.path("reclaimed").path("refused")).isEmpty();

    JsonNode deleted = invoke("reclaim", Fixtures.text("msk-document-deleted.json"));
    assertThat(deleted.path("deleted").path("unchanged").asInt()).isEqualTo(1);
    assertThat(deleted.path("deleted").path("rejected")).isEmpty();

    String elsewhere =
        Fixtures.text("msk-document-deleted.json")
            .replace("\"topic\": \"document-deleted\"", "\"topic\": \"storage-purge\"")
            .replace("document-deleted-2", "storage-purge-2");
    assertThat(failure("reclaim", elsewhere).errorMessage())
        .isEqualTo(
            "reclaim: records[\"storage-purge-2\"][0]"
                + ".topic must be reclaim-requests or document-deleted, was 'storage-purge'");
  }

  @Test
  void scheduledEventsRunTheReconcilerOverEveryDriveAndTheRetentionSweep() throws Exception {
    JsonNode reconciled = invoke("reconciler", Fixtures.text("eventbridge-scheduled.json"));
    assertThat(reconciled.path("drives").findValuesAsText("driveName"))
        .contains("acme:intake", "acme:pipeline");
    assertThat(reconciled.path("drives").findValues("dryRun")).allMatch(JsonNode::asBoolean);

    JsonNode swept = invoke("retention", Fixtures.text("eventbridge-scheduled.json"));
    // PROTOMOLT_RETENTION_WINDOW is unset: retention is off and tombstones nothing.
    assertThat(swept.path("enabled").asBoolean()).isFalse();
    assertThat(swept.path("tombstoned").asInt()).isZero();
  }

  @Test
  void migrateCreatesMissingTopicsOnceAndLeavesDataAloneOnDelete() throws Exception {
    String ensure =
        "{\"RequestType\":\"Create\",\"ResourceProperties\":{\"ServiceToken\":\"arn:aws:lambda:x\","
            + "\"operation\":\"ensure-topics\",\"topics\":[{\"name\":\"lambda-test-topic\",\"partitions\":\"2\"}]}}";
    assertThat(invoke("migrate", ensure).path("Data").path("created").asText())
        .isEqualTo("lambda-test-topic");
    assertThat(
            invoke("migrate", ensure.replace("Create", "Update"))
                .path("Data")
                .path("created")
                .asText())
        .isEmpty();

    JsonNode schema =
        invoke(
            "migrate",
            "{\"RequestType\":\"Update\",\"ResourceProperties\":{\"operation\":\"migrate-schema\"}}");
    assertThat(schema.path("PhysicalResourceId").asText()).isEqualTo("protomolt-migrate-schema");
    // The local cloud migrated on start: nothing is left to apply, and the version is reported.
    assertThat(schema.path("Data").path("applied").asInt()).isZero();
    assertThat(schema.path("Data").path("schemaVersion").asText()).isNotBlank();

    JsonNode deleted =
        invoke(
            "migrate",
            "{\"RequestType\":\"Delete\",\"ResourceProperties\":{\"operation\":\"migrate-schema\"}}");
    assertThat(deleted.path("Data").path("deleted").asText()).isEqualTo("nothing");
  }

  @Test
  void aThrownExceptionIsReportedByItsClassNameAndNamesTheFieldAndRule() {
    LambdaResult.Failure notJson = failure("intake", "[1, 2]");
    assertThat(notJson.errorType()).isEqualTo(InvalidEventException.class.getName());
    assertThat(notJson.errorMessage()).isEqualTo("intake: the event must be a JSON object");

    String noKey =
        Fixtures.text("s3-object-created-put.json")
            .replace(
                "\"key\": \"acme/acme-uploads/reports/quarterly+report+%28final%29.txt\",", "");
    assertThat(failure("intake", noKey).errorMessage())
        .isEqualTo("intake: Records[0].s3.object.key must be a non-blank string");

    String badBase64 =
        Fixtures.text("msk-indexing-receipts.json").replace("\"ZG9jLWFubnVhbA==\"", "\"%%%\"");
    assertThat(failure("indexing-ledger", badBase64).errorMessage())
        .startsWith("indexing-ledger: records[\"indexing-receipts-1\"][0].key must be base64");

    String notProtobuf =
        Fixtures.text("msk-account-events.json")
            .replaceAll("\"value\": \"[^\"]+\"", "\"value\": \"/////w==\"");
    assertThat(failure("account-events", notProtobuf).errorMessage())
        .startsWith(
            "account-events: records[\"account-events-0\"][0].value must be a AccountEvent"
                + " (protobuf); topic account-events partition 0 offset 15 is not");

    String underscored =
        Fixtures.text("msk-account-events.json")
            .replaceAll(
                "\"value\": \"[^\"]+\"",
                "\"value\": \""
                    + Base64.getEncoder()
                        .encodeToString(
                            AccountEvent.newBuilder()
                                .setAccountId("_intake-copies")
                                .build()
                                .toByteArray())
                    + "\"");
    assertThat(failure("account-events", underscored).errorMessage())
        .isEqualTo(
            "account event [0] account_id must be non-blank, contain no '/' and not start with '_'"
                + " (intake copies live under _intake-copies/), got '_intake-copies'");

    String wrongTrigger =
        Fixtures.text("eventbridge-scheduled.json").replace("Scheduled Event", "Object Created");
    assertThat(failure("retention", wrongTrigger).errorMessage())
        .startsWith("retention: detail-type must be 'Scheduled Event'");

    assertThat(
            failure(
                    "migrate",
                    "{\"RequestType\":\"Create\",\"ResourceProperties\":{\"operation\":\"drop\"}}")
                .errorMessage())
        .isEqualTo(
            "migrate: ResourceProperties.operation must be migrate-schema or"
                + " ensure-topics, was 'drop'");

    // The hop services name their own fields; the handler lets their failure through unchanged.
    String noGraph = Fixtures.text("sfn-prepare.json").replace("\"graphId\": \"lambda-echo\",", "");
    assertThat(failure("prepare", noGraph).errorMessage()).contains("'graphId'");

    assertThatThrownBy(() -> local.wiring.handler("reclaimer"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("handler name 'reclaimer' is unknown")
        .hasMessageContaining("graph-admin, intake, prepare");
  }

  @Test
  void aFunctionBuildsOnlyTheClientsItsHandlerUses() throws Exception {
    try (ContainerClients clients =
        new ContainerClients(new FunctionEnvironment(local.environment), Clock.systemUTC())) {
      FunctionWiring wiring = new FunctionWiring(clients);
      EventHandler migrate = wiring.handler("migrate");
      migrate.handleText(
          "{\"RequestType\":\"Delete\",\"ResourceProperties\":{\"operation\":\"ensure-topics\","
              + "\"topics\":[]}}");
      assertThat(clients.built()).isEmpty();

      wiring.handler("prepare").handleText(Fixtures.text("sfn-prepare.json"));
      assertThat(clients.built())
          .contains("jdbc", "s3", "kafka-producer")
          .doesNotContain("sfn", "kafka-admin");
    }
    // A function missing a setting it needs names the variable.
    try (ContainerClients bare =
        new ContainerClients(new FunctionEnvironment(Map.of()), Clock.systemUTC())) {
      assertThatThrownBy(() -> new FunctionWiring(bare).handler("purge"))
          .hasMessage(
              "PROTOMOLT_JDBC_URL or PROTOMOLT_DB_HOST: one is required by this function but"
                  + " neither is set");
    }
  }

  @Test
  void inAwsGraphAdminReadsDatasourceOwnersThatAccountEventsBind() throws Exception {
    try (ContainerClients clients =
        new ContainerClients(new FunctionEnvironment(local.environment), Clock.systemUTC())) {
      ObjectNode validate = EventJson.reply();
      validate.put("operation", "validate");
      validate.put("mode", "VALIDATION_MODE_DESIGN");
      validate.set("graph", EventJson.MAPPER.readTree(Fixtures.text("graphs/lambda-echo.json")));
      EventHandler graphAdmin = new FunctionWiring(clients).handler("graph-admin");

      // Before any account event names it, the datasource has no owner in the ledger's bindings.
      JsonNode unbound = EventJson.MAPPER.readTree(graphAdmin.handleText(validate.toString()));
      assertThat(unbound.path("result").toString())
          .contains("acme-uploads")
          .contains("not registered");

      // The fixture's provisioning event for acme, redelivered naming its datasource.
      AccountEvent fixture =
          AccountEvent.parseFrom(
              Base64.getDecoder()
                  .decode(
                      EventJson.MAPPER
                          .readTree(Fixtures.text("msk-account-events.json"))
                          .path("records")
                          .path("account-events-0")
                          .path(0)
                          .path("value")
                          .asText()));
      JsonNode bound =
          invoke(
              "account-events",
              accountEvent(fixture.toBuilder().addDatasourceIds("acme-uploads").build()));
      assertThat(bound.path("records").asInt()).isEqualTo(1);
      JsonNode owned = EventJson.MAPPER.readTree(graphAdmin.handleText(validate.toString()));
      assertThat(owned.path("result").toString()).doesNotContain("not registered");

      // A datasource never changes owner: another account's claim is refused, naming both.
      assertThat(
              failure(
                      "account-events",
                      accountEvent(
                          AccountEvent.newBuilder()
                              .setAccountId("globex")
                              .setType(AccountEventType.ACCOUNT_EVENT_TYPE_UPDATED)
                              .addDatasourceIds("acme-uploads")
                              .build()))
                  .errorMessage())
          .contains(
              "datasourceId: 'acme-uploads' already belongs to account 'acme', not" + " 'globex'");
      assertThat(
              failure(
                      "account-events",
                      accountEvent(
                          AccountEvent.newBuilder()
                              .setAccountId("acme")
                              .addDatasourceIds(" ")
                              .build()))
                  .errorMessage())
          .isEqualTo("account event [0] datasource_ids[0] must be non-blank");
    }
  }

  private static String accountEvent(AccountEvent event) {
    return Fixtures.text("msk-account-events.json")
        .replaceAll(
            "\"value\": \"[^\"]+\"",
            "\"value\": \"" + Base64.getEncoder().encodeToString(event.toByteArray()) + "\"");
  }

  private static WorkDispatch nextDispatch(Predicate<WorkDispatch> wanted) throws Exception {
    ConsumerRecord<String, byte[]> r =
        nextRecord(
            "pipestream.module.echo",
            rec -> {
              try {
                return wanted.test(WorkDispatch.parseFrom(rec.value()));
              } catch (InvalidProtocolBufferException e) {
                throw new AssertionError(e);
              }
            });
    return WorkDispatch.parseFrom(r.value());
  }

  /** Reads {@code topic} from the start until a record matches, within {@link #PATIENCE}. */
  private static ConsumerRecord<String, byte[]> nextRecord(
      String topic, Predicate<ConsumerRecord<String, byte[]>> wanted) {
    try (KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                local.cloud.endpoints().kafkaBootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG,
                "lambda-test-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest"),
            new StringDeserializer(),
            new ByteArrayDeserializer())) {
      consumer.subscribe(List.of(topic));
      long deadline = System.nanoTime() + PATIENCE.toNanos();
      List<String> seen = new ArrayList<>();
      while (System.nanoTime() < deadline) {
        for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          if (wanted.test(r)) {
            return r;
          }
          seen.add(r.key());
        }
      }
      throw new AssertionError(
          "no matching record on " + topic + " within " + PATIENCE + "; saw " + seen);
    }
  }

  private static ExecutionStatus awaitClosed(SfnClient sfn, String executionArn) {
    return StepFunctionsExecutions.awaitClosed(sfn, executionArn, PATIENCE).status();
  }
}
