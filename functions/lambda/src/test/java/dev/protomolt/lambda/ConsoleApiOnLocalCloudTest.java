package dev.protomolt.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.util.JsonFormat;
import dev.protomolt.core.doclog.DocumentLog;
import dev.protomolt.core.doclog.LogKey;
import dev.protomolt.core.doclog.WindowSpec;
import dev.protomolt.core.orchestration.AdmissionLog;
import dev.protomolt.core.store.DriveKind;
import dev.protomolt.core.tracing.TraceSpan;
import dev.protomolt.engine.admission.PostgresAdmissionLog;
import dev.protomolt.localstack.lambda.LambdaResult;
import dev.protomolt.proto.module.v1.WorkDispatch;
import dev.protomolt.repository.doclog.PostgresDocumentLogStore;
import dev.protomolt.repository.doclog.PostgresLogPartIndex;
import dev.protomolt.repository.postgres.PostgresDriveDirectory;
import dev.protomolt.testsupport.Eventually;
import dev.protomolt.testsupport.StepFunctionsExecutions;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * The {@code console-api} function, built by the production wiring, invoked through the local
 * Lambda runner with API Gateway HTTP API events: a graph deployed through it runs an uploaded
 * document on the local Step Functions runtime, and the run viewer's routes read that document's
 * status per node, hops and manifests back from Postgres, Step Functions and S3.
 */
class ConsoleApiOnLocalCloudTest {

  static final Duration PATIENCE = Duration.ofSeconds(60);
  static final String OPERATOR = "arn:aws:iam::000000000000:user/operator";

  /** A second platform operator, whose drafts are its own. */
  static final String ANOTHER_OPERATOR = "arn:aws:iam::000000000000:user/another-operator";

  /** An operator of account beta alone (decision 1752); it signs as a session of this role. */
  static final String BETA_OPERATOR_ROLE = "arn:aws:iam::000000000000:role/beta-operators";

  static final String BETA_OPERATOR =
      "arn:aws:sts::000000000000:assumed-role/beta-operators/CognitoIdentityCredentials";

  @TempDir static Path dataDir;
  static LocalCloudFunctions local;

  @BeforeAll
  static void start() {
    local = new LocalCloudFunctions(dataDir, LocalCloudFunctions.fixtureTenancy());
    assertThat(
            local
                .cloud
                .lambdas()
                .invoke("account-events", Fixtures.text("msk-account-events.json")))
        .isInstanceOf(LambdaResult.Success.class);
  }

  @AfterAll
  static void stop() {
    if (local != null) {
      local.close();
    }
  }

  /** One HTTP API call as API Gateway delivers it, IAM-signed by {@link #OPERATOR}. */
  static Reply call(String method, String path, Map<String, String> query, JsonNode body) {
    return call(method, path, query, body, OPERATOR);
  }

  static Reply call(
      String method, String path, Map<String, String> query, JsonNode body, String caller) {
    ObjectNode event = EventJson.reply();
    event.put("version", "2.0");
    event.put("routeKey", "$default");
    event.put("rawPath", path);
    ObjectNode q = event.putObject("queryStringParameters");
    query.forEach(q::put);
    ObjectNode context = event.putObject("requestContext");
    context.putObject("http").put("method", method).put("path", path);
    if (caller != null) {
      context
          .putObject("authorizer")
          .putObject("iam")
          .put("userArn", caller)
          .put("accountId", "000000000000");
    }
    if (body != null) {
      event.put("body", body.toString());
    }
    event.put("isBase64Encoded", false);
    LambdaResult result = local.cloud.lambdas().invoke("console-api", event.toString());
    assertThat(result).isInstanceOf(LambdaResult.Success.class);
    try {
      JsonNode reply = EventJson.MAPPER.readTree(((LambdaResult.Success) result).payload());
      return new Reply(
          reply.path("statusCode").asInt(), EventJson.MAPPER.readTree(reply.path("body").asText()));
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  record Reply(int status, JsonNode body) {}

  static ObjectNode graphBody(String edgeCondition) throws Exception {
    return graphBody("console-echo", edgeCondition);
  }

  static ObjectNode graphBody(String graphId, String edgeCondition) throws Exception {
    ObjectNode graph =
        (ObjectNode) EventJson.MAPPER.readTree(Fixtures.text("graphs/lambda-echo.json"));
    graph.put("graphId", graphId);
    ((ObjectNode) graph.path("edges").get(0)).put("condition", edgeCondition);
    ObjectNode body = EventJson.reply();
    body.set("graph", graph);
    return body;
  }

  @Test
  void badCelIsAViolationOnItsEdgeAndDeployRefusesItNamingTheEdge() throws Exception {
    Reply validated = call("POST", "/api/validate", Map.of(), graphBody("document.title =="));
    assertThat(validated.status()).isEqualTo(200);
    assertThat(validated.body().path("valid").asBoolean()).isFalse();
    assertThat(validated.body().path("violations").get(0).path("edgeId").asText())
        .isEqualTo("intake-echo");

    Reply refused =
        call("POST", "/api/deploy", Map.of(), graphBody("console-bad", "document.title =="));
    assertThat(refused.status()).isEqualTo(400);
    assertThat(refused.body().path("field").asText()).startsWith("graph.edges[intake-echo]");
    assertThat(refused.body().path("rule").asText()).isNotBlank();
    assertThat(refused.body().path("validation").path("violations").size()).isPositive();
    assertThat(
            call("GET", "/api/graphs/console-bad/versions", Map.of(), null)
                .body()
                .path("versions")
                .size())
        .as("a refused deploy stores nothing")
        .isZero();
  }

  @Test
  void aDeployedGraphRunsAnUploadAndTheViewerReadsItsStatusHopsAndManifests() throws Exception {
    Reply deployed = call("POST", "/api/deploy", Map.of(), graphBody("true"));
    assertThat(deployed.status()).as("%s", deployed.body()).isEqualTo(200);
    assertThat(deployed.body().path("active").asBoolean()).isTrue();
    assertThat(deployed.body().path("graph").path("version").asLong()).isEqualTo(1);
    JsonNode graphs = call("GET", "/api/graphs", Map.of("clusterId", "local"), null).body();
    assertThat(graphs.path("graphs").findValuesAsText("graphId")).contains("console-echo");

    String key = "acme/acme-uploads/reports/quarterly report (final).txt";
    S3Client s3 =
        local
            .clients
            .s3()
            .forDrive(
                new PostgresDriveDirectory(local.cloud.database())
                    .find("acme", DriveKind.INTAKE)
                    .orElseThrow());
    s3.putObject(
        b -> b.bucket("protomolt-intake").key(key),
        RequestBody.fromString("Revenue grew in every region this quarter."));
    JsonNode admitted =
        EventJson.MAPPER
            .readTree(
                ((LambdaResult.Success)
                        local
                            .cloud
                            .lambdas()
                            .invoke("intake", Fixtures.text("s3-object-created-put.json")))
                    .payload())
            .path("admissions")
            .get(0);
    String executionArn = admitted.path("executionArn").asText();
    String docId = admitted.path("docId").asText();

    // The test plays the echo module: it answers the dispatch with the stream it was given.
    WorkDispatch work = nextDispatch(executionArn);
    ObjectNode ack = EventJson.reply();
    ack.put("workUnitId", work.getWorkUnitId());
    ack.put("outcome", "CONTINUE");
    ack.set("stream", EventJson.MAPPER.readTree(JsonFormat.printer().print(work.getStream())));
    local
        .clients
        .sfn()
        .sendTaskSuccess(b -> b.taskToken(work.getTaskToken()).output(ack.toString()));
    assertThat(
            StepFunctionsExecutions.awaitClosed(local.clients.sfn(), executionArn, PATIENCE)
                .status())
        .isEqualTo(ExecutionStatus.SUCCEEDED);

    // Activation created the echo module's work topic, which is what registers it for the palette.
    assertThat(call("GET", "/api/modules", Map.of(), null).body().path("modules").toString())
        .contains("\"echo\"");

    JsonNode docs =
        call(
                "GET",
                "/api/documents",
                Map.of("accountId", "acme", "datasourceId", "acme-uploads"),
                null)
            .body();
    JsonNode doc = docs.path("documents").get(0);
    assertThat(doc.path("docId").asText()).isEqualTo(docId);
    JsonNode run = doc.path("admissions").get(0);
    assertThat(run.path("graphId").asText()).isEqualTo("console-echo");
    assertThat(run.path("status").asText()).isEqualTo("SUCCEEDED");
    // The echo graph has no sink: its walk ends where routing finds no edge out of echo.
    assertThat(run.path("disposition").asText()).isEqualTo("ROUTING_ENDED");
    assertThat(run.path("endNode").asText()).isEqualTo("echo");
    assertThat(run.path("nodes").path("echo").asText()).isEqualTo("ROUTING_ENDED");
    assertThat(run.path("nodes").path("intake").asText()).isEqualTo("DONE");
    assertThat(run.path("nodes").has("Start")).as("the machine's own states are no node").isFalse();

    Reply journey =
        call(
            "GET",
            "/api/documents/" + docId,
            Map.of("accountId", "acme", "datasourceId", "acme-uploads"),
            null);
    assertThat(journey.status()).isEqualTo(200);
    JsonNode hops = journey.body().path("admissions").get(0).path("hops");
    // Intake's Complete hands echo's work on itself (decision 1843): echo has no Work state.
    assertThat(hops.findValuesAsText("state"))
        .contains("intake.Complete", "echo.Complete")
        .doesNotContain("echo.Work");
    JsonNode manifests = journey.body().path("manifests");
    assertThat(manifests.findValuesAsText("at")).contains("intake");
    assertThat(manifests.get(0).path("manifest").toString()).contains("PIPE_DOC_PART_CORE");

    traceIsTheTreeTheCollectorKept(docId);
    moduleLogsComeGroupedByHopAPageAtATime(docId, executionArn, work.getWorkUnitId());
    replayFailRedriveAndReprocess(docId, executionArn);
  }

  /**
   * The document view's trace, read by console-api through X-Ray's API from the local collector
   * (decision 1830): the same spans {@code protomolt trace} reads from the collector's file, in
   * tree order, intake the root and the hops under it.
   */
  private static void traceIsTheTreeTheCollectorKept(String docId) {
    Reply traced =
        call(
            "GET",
            "/api/documents/" + docId + "/trace",
            Map.of("accountId", "acme", "datasourceId", "acme-uploads"),
            null);
    assertThat(traced.status()).as("%s", traced.body()).isEqualTo(200);
    List<TraceSpan> kept = local.cloud.traces().traceOf(docId);
    assertThat(traced.body().path("traceId").asText()).isEqualTo(kept.getFirst().traceId());
    JsonNode spans = traced.body().path("spans");
    assertThat(spans.size()).isEqualTo(kept.size());
    JsonNode root = spans.get(0);
    assertThat(root.path("name").asText()).isEqualTo("intake");
    assertThat(root.path("depth").asInt()).isZero();
    assertThat(root.path("parentSpanId").asText()).isEmpty();
    assertThat(root.path("startOffsetMs").asDouble()).isZero();
    // The echo node has no filter: intake's Complete prepares it, in a span of its own inside the
    // complete span (decision 1832).
    assertThat(spans)
        .as("a prepare span under complete")
        .anySatisfy(
            sp -> {
              assertThat(sp.path("name").asText()).isEqualTo("prepare");
              assertThat(sp.path("depth").asInt()).isEqualTo(2);
            });
    // Intake's Complete hands echo's work on itself (decision 1843): no dispatch span.
    assertThat(spans).noneMatch(sp -> sp.path("name").asText().equals("dispatch"));
    assertThat(spans)
        .as("a complete span under intake")
        .anySatisfy(
            sp -> {
              assertThat(sp.path("name").asText()).isEqualTo("complete");
              assertThat(sp.path("depth").asInt()).isEqualTo(1);
              assertThat(sp.path("parentSpanId").asText()).isEqualTo(root.path("spanId").asText());
              assertThat(sp.path("service").asText()).isNotBlank();
              assertThat(sp.path("durationMs").asDouble()).isPositive();
            });
  }

  /**
   * The journey's module logs (decision 1754): the test keeps the echo hop's log as the gateway
   * does (the module's stamped lines, then the gateway's footer, then the seal); console-api finds
   * the hop through the execution's transcript, which the real Prepare wrote, and answers the
   * lines split into instant, level and text, a page at a time.
   */
  private static void moduleLogsComeGroupedByHopAPageAtATime(
      String docId, String executionArn, String workUnitId) {
    DocumentLog log =
        new DocumentLog(
            new PostgresDocumentLogStore(local.cloud.database()),
            new PostgresLogPartIndex(local.cloud.database()));
    LogKey key = LogKey.workUnitLog("acme", workUnitId);
    log.open(key, WindowSpec.DEFAULT);
    String module =
        "2026-03-04T05:06:07.089Z INFO echoed " + docId + "\n2026-03-04T05:06:08Z WARN no title\n";
    log.append(key, module, 0);
    log.append(key, "# end of attempt 1 of node echo on echo-1: CONTINUE\n", module.length());
    log.seal(key);

    Map<String, String> where = Map.of("accountId", "acme", "datasourceId", "acme-uploads");
    Reply all = call("GET", "/api/documents/" + docId + "/logs", where, null);
    assertThat(all.status()).as("%s", all.body()).isEqualTo(200);
    assertThat(all.body().path("transcribed").asBoolean()).isTrue();
    assertThat(all.body().has("nextPageToken")).isFalse();
    JsonNode hop = all.body().path("hops").get(0);
    assertThat(all.body().path("hops").size()).isEqualTo(1);
    assertThat(hop.path("executionArn").asText()).isEqualTo(executionArn);
    assertThat(hop.path("nodeId").asText()).isEqualTo("echo");
    assertThat(hop.path("moduleId").asText()).isEqualTo("echo");
    assertThat(hop.path("workUnitId").asText()).isEqualTo(workUnitId);
    assertThat(hop.path("hop").asInt()).isEqualTo(2);
    assertThat(hop.path("queuedAt").asText()).isNotBlank();
    assertThat(hop.path("sealed").asBoolean()).isTrue();
    assertThat(hop.path("lineCount").asInt()).isEqualTo(3);
    JsonNode first = hop.path("lines").get(0);
    assertThat(first.path("at").asText()).isEqualTo("2026-03-04T05:06:07.089Z");
    assertThat(first.path("level").asText()).isEqualTo("INFO");
    assertThat(first.path("source").asText()).isEqualTo("MODULE");
    assertThat(first.path("text").asText()).isEqualTo("echoed " + docId);
    assertThat(hop.path("lines").get(1).path("level").asText()).isEqualTo("WARN");
    JsonNode footer = hop.path("lines").get(2);
    assertThat(footer.path("source").asText()).isEqualTo("PLATFORM");
    assertThat(footer.path("level").asText()).isEmpty();

    Map<String, String> paged = new java.util.HashMap<>(where);
    paged.put("limit", "2");
    Reply page1 = call("GET", "/api/documents/" + docId + "/logs", paged, null);
    assertThat(page1.body().path("hops").get(0).path("lines").size()).isEqualTo(2);
    paged.put("pageToken", page1.body().path("nextPageToken").asText());
    Reply page2 = call("GET", "/api/documents/" + docId + "/logs", paged, null);
    assertThat(page2.status()).as("%s", page2.body()).isEqualTo(200);
    JsonNode rest = page2.body().path("hops").get(0).path("lines");
    assertThat(rest.size()).isEqualTo(1);
    assertThat(rest.get(0).path("line").asInt()).isEqualTo(2);
    assertThat(page2.body().has("nextPageToken")).isFalse();

    Map<String, String> tooMany = new java.util.HashMap<>(where);
    tooMany.put("limit", "501");
    assertThat(
            refused(call("GET", "/api/documents/" + docId + "/logs", tooMany, null), 400, "limit")
                .body()
                .path("rule")
                .asText())
        .contains("1 to 500");
    Map<String, String> forged = new java.util.HashMap<>(where);
    forged.put(
        "pageToken",
        java.util.Base64.getUrlEncoder()
            .encodeToString(
                "someone-elses-unit|0".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    refused(call("GET", "/api/documents/" + docId + "/logs", forged, null), 400, "pageToken");
  }

  /**
   * The run viewer's actions on the document that just ran: replay it through the replay state
   * machine and follow its progress; the replayed run fails in the module and dead-letters;
   * redrive that failed execution, which dispatches the module hop again; reprocess its dead
   * letter through the dlq-admin door.
   */
  private static void replayFailRedriveAndReprocess(String docId, String firstRun)
      throws Exception {
    ObjectNode input = EventJson.reply();
    input.put("account_id", "acme");
    input.put("graph_id", "console-echo");
    input.put("requested_by", "someone-else");
    input
        .putObject("selectors")
        .put("datasource_id", "acme-uploads")
        .putArray("doc_ids")
        .add(docId);
    Reply started = call("POST", "/api/replays", Map.of(), input);
    assertThat(started.status()).as("%s", started.body()).isEqualTo(200);
    String replayArn = started.body().path("executionArn").asText();
    assertThat(replayArn).startsWith(replayMachineArn().replace(":stateMachine:", ":execution:"));

    assertThat(
            StepFunctionsExecutions.awaitClosed(local.clients.sfn(), replayArn, PATIENCE).status())
        .isEqualTo(ExecutionStatus.SUCCEEDED);
    JsonNode progress = call("GET", "/api/replays", Map.of("executionArn", replayArn), null).body();
    assertThat(progress.path("status").asText()).isEqualTo("SUCCEEDED");
    assertThat(progress.path("progress").path("candidates").asLong()).isEqualTo(1);
    assertThat(progress.path("progress").path("pages").asLong()).isPositive();
    assertThat(progress.path("progress").path("requestedBy").asText())
        .as("the audit names the signed caller, not what the body claimed")
        .isEqualTo(OPERATOR);

    // The replayed run: the test plays a module failing for good, so the hop dead-letters.
    WorkDispatch again = nextDispatch(arn -> !arn.equals(firstRun));
    String secondRun = again.getExecutionArn();
    local
        .clients
        .sfn()
        .sendTaskFailure(
            b ->
                b.taskToken(again.getTaskToken())
                    .error("Console.TestFailure")
                    .cause("the replayed run fails on purpose"));
    assertThat(
            StepFunctionsExecutions.awaitClosed(local.clients.sfn(), secondRun, PATIENCE).status())
        .isEqualTo(ExecutionStatus.FAILED);

    ObjectNode succeeded = EventJson.reply();
    succeeded.put("executionArn", firstRun);
    Reply notRedrivable = call("POST", "/api/redrives", Map.of(), succeeded);
    assertThat(notRedrivable.status()).isEqualTo(409);
    assertThat(notRedrivable.body().path("field").asText()).isEqualTo("executionArn");

    ObjectNode failed = EventJson.reply();
    failed.put("executionArn", secondRun);
    Reply redriven = call("POST", "/api/redrives", Map.of(), failed);
    assertThat(redriven.status()).as("%s", redriven.body()).isEqualTo(200);
    assertThat(local.clients.sfn().describeExecution(b -> b.executionArn(secondRun)).redriveCount())
        .isEqualTo(1);
    // The redrive sends the dead-lettered run back to its module hop (decision 1525); the module
    // still fails, so it dead-letters again.
    WorkDispatch redispatched =
        nextDispatchWhere(
            w ->
                w.getExecutionArn().equals(secondRun)
                    && !w.getTaskToken().equals(again.getTaskToken()));
    assertThat(redispatched.getWorkUnitId()).isEqualTo(again.getWorkUnitId());
    local
        .clients
        .sfn()
        .sendTaskFailure(
            b ->
                b.taskToken(redispatched.getTaskToken())
                    .error("Console.TestFailure")
                    .cause("the redriven run fails on purpose too"));
    assertThat(
            StepFunctionsExecutions.awaitClosed(local.clients.sfn(), secondRun, PATIENCE).error())
        .isEqualTo("ProtoMolt.DeadLettered");

    JsonNode letters =
        Eventually.value(
            "the replayed run's dead letter listed",
            () -> {
              JsonNode page =
                  call(
                          "GET",
                          "/api/dead-letters",
                          Map.of("accountId", "acme", "graphId", "console-echo"),
                          null)
                      .body();
              return page.path("deadLetters").findValuesAsText("executionArn").contains(secondRun)
                  ? java.util.Optional.of(page.path("deadLetters"))
                  : java.util.Optional.empty();
            });
    JsonNode letter = null;
    for (JsonNode l : letters) {
      if (l.path("executionArn").asText().equals(secondRun)) {
        letter = l;
      }
    }
    assertThat(letter.path("docId").asText()).isEqualTo(docId);
    ObjectNode reprocess = EventJson.reply();
    reprocess.put("accountId", "acme");
    reprocess.put("graphId", "console-echo");
    reprocess.put("dlqId", letter.path("dlqId").asText());
    Reply reprocessed = call("POST", "/api/dead-letters/reprocess", Map.of(), reprocess);
    assertThat(reprocessed.status()).as("%s", reprocessed.body()).isEqualTo(200);
    assertThat(reprocessed.body().path("outcomes").get(0).path("verdict").asText())
        .isEqualTo("REPROCESSED");
    // The reprocessed run is a third execution of the document, waiting on the module again.
    assertThat(nextDispatch(arn -> !arn.equals(firstRun) && !arn.equals(secondRun))).isNotNull();

    deployAgainDiffAndRollBack();
  }

  /**
   * With the reprocessed run still waiting on version 1: deploy a version 2 with another
   * condition, see each version's running executions and the diff naming the condition, refuse a
   * rollback confirmed against a stale active version, then roll back to version 1.
   */
  private static void deployAgainDiffAndRollBack() throws Exception {
    Reply second =
        call("POST", "/api/deploy", Map.of(), graphBody("document.search_metadata.title != ''"));
    assertThat(second.status()).as("%s", second.body()).isEqualTo(200);
    assertThat(second.body().path("graph").path("version").asLong()).isEqualTo(2);

    JsonNode versions = call("GET", "/api/graphs/console-echo/versions", Map.of(), null).body();
    JsonNode v1 = version(versions, 1);
    JsonNode v2 = version(versions, 2);
    assertThat(v1.path("active").asBoolean()).isFalse();
    assertThat(v2.path("active").asBoolean()).isTrue();
    assertThat(v1.path("runningExecutions").asLong())
        .as("the reprocessed run waits on the module, pinned to version 1")
        .isEqualTo(1);
    assertThat(v2.path("runningExecutions").asLong()).isZero();

    JsonNode diff =
        call("GET", "/api/graphs/console-echo/diff", Map.of("from", "1", "to", "2"), null).body();
    assertThat(diff.path("nodes").size()).as("%s", diff).isZero();
    JsonNode edge = diff.path("edges").get(0);
    assertThat(edge.path("id").asText()).isEqualTo("intake-echo");
    assertThat(edge.path("kind").asText()).isEqualTo("CHANGED");
    assertThat(edge.path("fields").get(0).path("field").asText()).isEqualTo("condition");
    assertThat(edge.path("fields").get(0).path("before").asText()).isEqualTo("true");
    assertThat(edge.path("fields").get(0).path("after").asText())
        .isEqualTo("document.search_metadata.title != ''");

    ObjectNode stale = EventJson.reply();
    stale.put("clusterId", "local");
    stale.put("expectedActiveVersion", 1);
    Reply refused =
        refused(
            call("POST", "/api/graphs/console-echo/versions/1/activate", Map.of(), stale),
            409,
            "expectedActiveVersion");
    assertThat(refused.body().path("rule").asText()).contains("active version is 2");
    assertThat(
            version(call("GET", "/api/graphs/console-echo/versions", Map.of(), null).body(), 2)
                .path("active")
                .asBoolean())
        .as("a refused rollback changes nothing")
        .isTrue();

    ObjectNode confirmed = EventJson.reply();
    confirmed.put("clusterId", "local");
    // As the versions route printed it: the protobuf JSON mapping writes int64 as a string.
    confirmed.put("expectedActiveVersion", v2.path("graph").path("version").asText());
    Reply rolledBack =
        call("POST", "/api/graphs/console-echo/versions/1/activate", Map.of(), confirmed);
    assertThat(rolledBack.status()).as("%s", rolledBack.body()).isEqualTo(200);
    assertThat(rolledBack.body().path("graph").path("version").asLong()).isEqualTo(1);
    assertThat(rolledBack.body().path("active").asBoolean()).isTrue();
    JsonNode after = call("GET", "/api/graphs/console-echo/versions", Map.of(), null).body();
    assertThat(version(after, 1).path("active").asBoolean()).isTrue();
    assertThat(version(after, 2).path("active").asBoolean()).isFalse();
    // Rollback moved the graph's active alias back onto version 1's state machine version.
    String alias = v1.path("stateMachineVersionArn").asText().replaceFirst(":[0-9]+$", ":active");
    assertThat(
            local
                .clients
                .sfn()
                .describeStateMachineAlias(b -> b.stateMachineAliasArn(alias))
                .routingConfiguration()
                .get(0)
                .stateMachineVersionArn())
        .isEqualTo(v1.path("stateMachineVersionArn").asText());
  }

  private static JsonNode version(JsonNode versions, long number) {
    for (JsonNode v : versions.path("versions")) {
      if (v.path("graph").path("version").asLong() == number) {
        return v;
      }
    }
    throw new AssertionError("no version " + number + " in " + versions);
  }

  @Test
  void documentsComeAPageAtATimeNewestFirstWithATokenForTheOlderOnes() {
    PostgresAdmissionLog log = new PostgresAdmissionLog(local.cloud.database());
    for (int i = 1; i <= 3; i++) {
      log.record(
          new AdmissionLog.AdmissionRecord(
              "acme",
              "paged",
              "doc-" + i,
              "",
              0,
              AdmissionLog.Outcome.UNBOUND,
              "",
              "",
              "no graph reads datasource 'paged'",
              Instant.parse("2026-01-01T00:00:0" + i + "Z")));
    }
    Map<String, String> query = Map.of("accountId", "acme", "datasourceId", "paged", "limit", "2");
    JsonNode first = call("GET", "/api/documents", query, null).body();
    assertThat(first.path("documents").findValuesAsText("docId"))
        .as("the newest page, newest last")
        .containsExactly("doc-2", "doc-3");
    String token = first.path("nextPageToken").asText();
    assertThat(token).isNotBlank();

    Map<String, String> older = new java.util.HashMap<>(query);
    older.put("pageToken", token);
    JsonNode second = call("GET", "/api/documents", older, null).body();
    assertThat(second.path("documents").findValuesAsText("docId")).containsExactly("doc-1");
    assertThat(second.has("nextPageToken")).as("nothing older remains").isFalse();

    Map<String, String> bad = new java.util.HashMap<>(query);
    bad.put("pageToken", "not-a-token");
    refused(call("GET", "/api/documents", bad, null), 400, "pageToken");
    for (String limit : List.of("0", "201", "ten")) {
      Map<String, String> badLimit = new java.util.HashMap<>(query);
      badLimit.put("limit", limit);
      refused(call("GET", "/api/documents", badLimit, null), 400, "limit");
    }
  }

  @Test
  void rollbackAndDiffRefusalsNameTheFieldAndChangeNothing() {
    ObjectNode body = EventJson.reply();
    body.put("clusterId", "local");
    refused(
        call("POST", "/api/graphs/console-echo/versions/first/activate", Map.of(), body),
        400,
        "version");
    refused(
        call("POST", "/api/graphs/console-none/versions/3/activate", Map.of(), body),
        404,
        "version");
    refused(
        call("POST", "/api/graphs/console-echo/versions/1/activate", Map.of(), EventJson.reply()),
        400,
        "clusterId");
    ObjectNode badExpected = body.deepCopy();
    badExpected.put("expectedActiveVersion", "two");
    refused(
        call("POST", "/api/graphs/console-echo/versions/1/activate", Map.of(), badExpected),
        400,
        "expectedActiveVersion");
    refused(
        call("GET", "/api/graphs/console-echo/versions/1/activate", Map.of(), null), 405, "method");
    refused(
        call("POST", "/api/graphs/console-echo/versions/1/activate", Map.of(), body, null),
        401,
        "requestContext.authorizer.iam");

    refused(
        call("GET", "/api/graphs/console-none/diff", Map.of("from", "x", "to", "1"), null),
        400,
        "from");
    refused(call("GET", "/api/graphs/console-none/diff", Map.of("from", "1"), null), 400, "to");
    refused(
        call("GET", "/api/graphs/console-none/diff", Map.of("from", "1", "to", "2"), null),
        404,
        "from");
    assertThat(
            call("GET", "/api/graphs/console-none/versions", Map.of(), null)
                .body()
                .path("versions")
                .size())
        .isZero();
  }

  @Test
  void refusalsNameTheFieldAndTheRule() throws Exception {
    Reply unsigned = call("GET", "/api/graphs", Map.of(), null, null);
    assertThat(unsigned.status()).isEqualTo(401);
    assertThat(unsigned.body().path("field").asText()).isEqualTo("requestContext.authorizer.iam");

    Reply noAccount = call("GET", "/api/documents", Map.of(), null);
    assertThat(noAccount.status()).isEqualTo(400);
    assertThat(noAccount.body().path("field").asText()).isEqualTo("accountId");
    assertThat(noAccount.body().path("rule").asText()).contains("required");

    Reply notJson =
        call("POST", "/api/validate", Map.of(), EventJson.MAPPER.getNodeFactory().textNode("x"));
    assertThat(notJson.status()).isEqualTo(400);
    assertThat(notJson.body().path("field").asText()).isEqualTo("body");

    ObjectNode badGraph = EventJson.reply();
    badGraph.putObject("graph").put("nodez", 1);
    Reply notAGraph = call("POST", "/api/validate", Map.of(), badGraph);
    assertThat(notAGraph.status()).isEqualTo(400);
    assertThat(notAGraph.body().path("field").asText()).isEqualTo("graph");

    ObjectNode badMode = graphBody("true");
    badMode.put("mode", "LOOSE");
    Reply mode = call("POST", "/api/validate", Map.of(), badMode);
    assertThat(mode.status()).isEqualTo(400);
    assertThat(mode.body().path("field").asText()).isEqualTo("mode");

    assertThat(call("DELETE", "/api/graphs", Map.of(), null).status()).isEqualTo(405);
    Reply unknown = call("GET", "/api/nothing", Map.of(), null);
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.body().path("field").asText()).isEqualTo("path");

    Reply noJourney =
        call(
            "GET",
            "/api/documents/missing",
            Map.of("accountId", "acme", "datasourceId", "x"),
            null);
    assertThat(noJourney.status()).isEqualTo(404);
    assertThat(noJourney.body().path("field").asText()).isEqualTo("docId");
    Reply noTrace =
        call(
            "GET",
            "/api/documents/missing/trace",
            Map.of("accountId", "acme", "datasourceId", "x"),
            null);
    assertThat(noTrace.status()).isEqualTo(404);
    assertThat(noTrace.body()).as("as absent as its journey").isEqualTo(noJourney.body());
    Reply noLogs =
        call(
            "GET",
            "/api/documents/missing/logs",
            Map.of("accountId", "acme", "datasourceId", "x"),
            null);
    assertThat(noLogs.status()).isEqualTo(404);
    assertThat(noLogs.body()).as("as absent as its journey").isEqualTo(noJourney.body());
    refused(
        call(
            "GET",
            "/api/documents/missing/logs",
            Map.of("accountId", "acme", "datasourceId", "x", "limit", "none"),
            null),
        400,
        "limit");
    refused(
        call(
            "GET",
            "/api/documents/missing/logs",
            Map.of("accountId", "acme", "datasourceId", "x", "pageToken", "%%%"),
            null),
        400,
        "pageToken");
  }

  @Test
  void draftsAreKeptInTheDraftsTablePerCallerWithTheirBaseVersion() throws Exception {
    ObjectNode draft = graphBody("console-drafted", "true");
    draft.put("baseVersion", 3);
    Reply saved = call("PUT", "/api/drafts/local/console-drafted", Map.of(), draft);
    assertThat(saved.status()).as("%s", saved.body()).isEqualTo(200);

    Reply read = call("GET", "/api/drafts/local/console-drafted", Map.of(), null);
    assertThat(read.status()).isEqualTo(200);
    assertThat(read.body().path("graph").path("graphId").asText()).isEqualTo("console-drafted");
    assertThat(read.body().path("baseVersion").asLong()).isEqualTo(3);
    assertThat(read.body().path("expiresAt").asText()).as("the sliding TTL is set").isNotBlank();

    Reply someoneElses =
        call("GET", "/api/drafts/local/console-drafted", Map.of(), null, ANOTHER_OPERATOR);
    assertThat(someoneElses.status()).as("a draft is its author's").isEqualTo(404);
    assertThat(someoneElses.body().path("field").asText()).isEqualTo("graphId");
  }

  @Test
  void anAccountOperatorActsOnlyOnItsAccountAndItsRefusalsNameNothing() throws Exception {
    Reply own = call("GET", "/api/documents", Map.of("accountId", "beta"), null, BETA_OPERATOR);
    assertThat(own.status()).as("beta's operator reads beta: %s", own.body()).isEqualTo(200);

    // Another account's documents, journeys, dead letters and actions: one 403 whatever exists,
    // so a refusal says nothing about acme (whose documents other tests upload) or ghost (none).
    List<Reply> refusals =
        List.of(
            call("GET", "/api/documents", Map.of("accountId", "acme"), null, BETA_OPERATOR),
            call("GET", "/api/documents", Map.of("accountId", "ghost"), null, BETA_OPERATOR),
            call(
                "GET",
                "/api/documents/some-doc",
                Map.of("accountId", "acme", "datasourceId", "acme-uploads"),
                null,
                BETA_OPERATOR),
            call(
                "GET",
                "/api/documents/some-doc/trace",
                Map.of("accountId", "acme", "datasourceId", "acme-uploads"),
                null,
                BETA_OPERATOR),
            call(
                "GET",
                "/api/documents/some-doc/logs",
                Map.of("accountId", "acme", "datasourceId", "acme-uploads"),
                null,
                BETA_OPERATOR),
            call(
                "GET",
                "/api/dead-letters",
                Map.of("accountId", "acme", "graphId", "console-echo"),
                null,
                BETA_OPERATOR),
            call("GET", "/api/graphs", Map.of("clusterId", "default"), null, BETA_OPERATOR),
            call("GET", "/api/modules", Map.of(), null, BETA_OPERATOR),
            call("POST", "/api/deploy", Map.of(), graphBody("true"), BETA_OPERATOR),
            call(
                "GET",
                "/api/documents",
                Map.of("accountId", "beta"),
                null,
                "arn:aws:iam::000000000000:user/stranger"));
    for (Reply refused : refusals) {
      assertThat(refused.status()).as("%s", refused.body()).isEqualTo(403);
      assertThat(refused.body()).isEqualTo(refusals.getFirst().body());
    }
    assertThat(refusals.getFirst().body().path("field").asText()).isEqualTo("principal");
    assertThat(refusals.getFirst().body().toString()).doesNotContain("acme").doesNotContain("beta");

    ObjectNode reprocess = EventJson.reply();
    reprocess.put("accountId", "acme");
    reprocess.put("graphId", "console-echo");
    reprocess.put("dlqId", "any");
    assertThat(
            call("POST", "/api/dead-letters/reprocess", Map.of(), reprocess, BETA_OPERATOR).body())
        .isEqualTo(refusals.getFirst().body());

    ObjectNode replay = EventJson.reply();
    replay.put("account_id", "acme");
    replay.put("graph_id", "console-echo");
    replay.putObject("selectors").put("datasource_id", "acme-uploads");
    int replaysBefore = replayExecutions();
    Reply foreignReplay = call("POST", "/api/replays", Map.of(), replay, BETA_OPERATOR);
    assertThat(foreignReplay.status()).isEqualTo(403);
    assertThat(replayExecutions())
        .as("a replay of another account starts nothing")
        .isEqualTo(replaysBefore);
    // A malformed request is still refused for its field first, as at the gateway's shell.
    refused(call("GET", "/api/documents", Map.of(), null, BETA_OPERATOR), 400, "accountId");
  }

  @Test
  void actionRefusalsNameTheFieldAndStartNothing() throws Exception {
    ObjectNode typo = EventJson.reply();
    typo.put("account_id", "acme");
    typo.put("graph_id", "console-echo");
    typo.putObject("selectors").put("datasource", "acme-uploads");
    int replaysBefore = replayExecutions();
    refused(call("POST", "/api/replays", Map.of(), typo), 400, "selectors.datasource");
    assertThat(replayExecutions())
        .as("a refused replay starts no execution")
        .isEqualTo(replaysBefore);

    ObjectNode foreign = EventJson.reply();
    foreign.put(
        "executionArn", "arn:aws:states:us-east-1:000000000000:execution:protomolt-prod-x:run");
    Reply redrive = refused(call("POST", "/api/redrives", Map.of(), foreign), 400, "executionArn");
    assertThat(redrive.body().path("rule").asText()).contains("this environment");

    ObjectNode missing = EventJson.reply();
    missing.put("executionArn", executionPrefix() + "console-echo:no-such-run");
    refused(call("POST", "/api/redrives", Map.of(), missing), 404, "executionArn");

    refused(
        call("GET", "/api/replays", Map.of("executionArn", executionPrefix() + "x:y"), null),
        400,
        "executionArn");

    ObjectNode noDlq = EventJson.reply();
    noDlq.put("accountId", "acme");
    noDlq.put("graphId", "console-echo");
    refused(call("POST", "/api/dead-letters/reprocess", Map.of(), noDlq), 400, "dlqId");

    refused(
        call(
            "GET",
            "/api/dead-letters",
            Map.of("accountId", "acme", "graphId", "no-such-graph"),
            null),
        400,
        "graphId");

    refused(
        call("POST", "/api/redrives", Map.of(), missing, null),
        401,
        "requestContext.authorizer.iam");
  }

  /** A refusal: its status and the field it names; returns it for the rule's checks. */
  static Reply refused(Reply reply, int status, String field) {
    assertThat(reply.status()).as("%s", reply.body()).isEqualTo(status);
    assertThat(reply.body().path("field").asText()).isEqualTo(field);
    assertThat(reply.body().path("rule").asText()).isNotBlank();
    return reply;
  }

  static int replayExecutions() {
    return local
        .clients
        .sfn()
        .listExecutions(b -> b.stateMachineArn(replayMachineArn()))
        .executions()
        .size();
  }

  static String replayMachineArn() {
    return local.environment.get("PROTOMOLT_REPLAY_STATE_MACHINE_ARN");
  }

  static String executionPrefix() {
    return "arn:aws:states:"
        + local.cloud.endpoints().region()
        + ":000000000000:execution:protomolt-"
        + LocalCloudFunctions.ENV
        + "-";
  }

  private static WorkDispatch nextDispatch(String executionArn) throws Exception {
    return nextDispatch(executionArn::equals);
  }

  private static WorkDispatch nextDispatch(java.util.function.Predicate<String> execution)
      throws Exception {
    return nextDispatchWhere(work -> execution.test(work.getExecutionArn()));
  }

  private static WorkDispatch nextDispatchWhere(java.util.function.Predicate<WorkDispatch> wanted)
      throws Exception {
    try (KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                local.cloud.endpoints().kafkaBootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG,
                "console-test-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest"),
            new StringDeserializer(),
            new ByteArrayDeserializer())) {
      consumer.subscribe(List.of("pipestream.module.echo"));
      long deadline = System.nanoTime() + PATIENCE.toNanos();
      while (System.nanoTime() < deadline) {
        for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
          WorkDispatch work = WorkDispatch.parseFrom(r.value());
          if (wanted.test(work)) {
            return work;
          }
        }
      }
      throw new AssertionError("no dispatch of the execution asked for within " + PATIENCE);
    }
  }
}
