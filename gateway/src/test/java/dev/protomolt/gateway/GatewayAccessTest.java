package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.protobuf.util.JsonFormat;
import dev.protomolt.identity.CallerToken;
import dev.protomolt.identity.GatewayCallCredentials;
import dev.protomolt.localstack.cloud.LocalKafka;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.engine.v1.DatasourceGrantServiceGrpc;
import dev.protomolt.proto.engine.v1.ListDatasourceGrantsRequest;
import dev.protomolt.proto.events.v1.AccountEvent;
import dev.protomolt.proto.events.v1.AccountEventType;
import dev.protomolt.proto.module.v1.Hello;
import dev.protomolt.proto.module.v1.ModuleWorkServiceGrpc;
import dev.protomolt.proto.module.v1.WorkAck;
import dev.protomolt.proto.module.v1.WorkRequest;
import dev.protomolt.proto.module.v1.WorkResponse;
import dev.protomolt.proto.repository.v1.GetPipeDocManifestRequest;
import dev.protomolt.proto.repository.v1.GetPipeDocRequest;
import dev.protomolt.proto.repository.v1.PipeDocServiceGrpc;
import dev.protomolt.proto.repository.v1.SavePipeDocRequest;
import dev.protomolt.repository.fixtures.SampleDocs;
import dev.protomolt.repository.fixtures.Saves;
import dev.protomolt.repository.fixtures.StoreHarness;
import dev.protomolt.testsupport.Eventually;
import io.grpc.CallCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every refusal of the gateway's door keeper, over real sockets against {@link GatewayMain}: the
 * caller's token is verified by the local STS, the store is S3Proxy and embedded PostgreSQL, Kafka
 * the in-process broker. Also the coherence of account deactivation across two gateway tasks.
 */
class GatewayAccessTest {

  @TempDir static Path data;

  private static StoreHarness h;
  private static LocalKafka kafka;
  private static LocalCallers callers;
  private static GatewayMain gateway;
  private static ManagedChannel channel;
  private static DocumentReference acmeDoc;
  private static PipeDoc acmeContent;

  @BeforeAll
  static void start() throws Exception {
    h = StoreHarness.start();
    kafka = LocalKafka.start(data.resolve("kafka"), 0, 0);
    callers = new LocalCallers();
    // The stack's topic resource creates account-events before any gateway task starts.
    try (Admin admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
      admin
          .createTopics(List.of(new NewTopic(AccountEventFeed.TOPIC, 2, (short) 1)))
          .all()
          .get(30, TimeUnit.SECONDS);
    }
    h.store.onAccountEvent(StoreHarness.platformAccount("acme"));
    h.store.onAccountEvent(StoreHarness.platformAccount("beta"));
    acmeContent = SampleDocs.document("doc-access", 2, 64);
    acmeDoc = h.store.save(Saves.intake("acme", "ds", acmeContent).build()).getDocumentRef();
    gateway = GatewayMain.start(GatewayConfig.from(settings()));
    channel = NettyChannelBuilder.forAddress("127.0.0.1", gateway.port()).usePlaintext().build();
  }

  static Map<String, String> settings() throws Exception {
    String jdbcUrl;
    try (Connection c = h.postgres.dataSource().getConnection()) {
      jdbcUrl = c.getMetaData().getURL();
    }
    Map<String, String> env = new HashMap<>(callers.gatewaySettings());
    env.put("PROTOMOLT_GATEWAY_PORT", "0");
    env.put("PROTOMOLT_GATEWAY_MODULES", "parser,chunker");
    env.put("PROTOMOLT_KAFKA_BOOTSTRAP", kafka.bootstrapServers());
    env.put("PROTOMOLT_JDBC_URL", jdbcUrl);
    env.put("PROTOMOLT_JDBC_USER", "postgres");
    // Nothing is dispatched here, so Step Functions is never called.
    env.put("PROTOMOLT_SFN_ENDPOINT", "http://127.0.0.1:9");
    env.put("PROTOMOLT_S3_CREDENTIALS_REFS", "platform");
    env.put("PROTOMOLT_S3_PLATFORM_ENDPOINT", h.platform.endpoint().toString());
    env.put("PROTOMOLT_S3_PLATFORM_PATH_STYLE", "true");
    env.put("PROTOMOLT_S3_PLATFORM_ACCESS_KEY_ID", "platform-key");
    env.put("PROTOMOLT_S3_PLATFORM_SECRET_ACCESS_KEY", "platform-secret");
    return env;
  }

  @AfterAll
  static void stop() throws Exception {
    channel.shutdownNow();
    gateway.close();
    callers.close();
    kafka.close();
    h.close();
  }

  private static PipeDocServiceGrpc.PipeDocServiceBlockingStub docs(String caller) {
    PipeDocServiceGrpc.PipeDocServiceBlockingStub stub =
        PipeDocServiceGrpc.newBlockingStub(channel);
    return caller == null ? stub : stub.withCallCredentials(callers.credentials(caller));
  }

  private static GetPipeDocManifestRequest manifestOf(DocumentReference ref) {
    return GetPipeDocManifestRequest.newBuilder().setDocumentRef(ref).build();
  }

  private static Status statusOf(Runnable call) {
    try {
      call.run();
    } catch (StatusRuntimeException e) {
      return e.getStatus();
    }
    throw new AssertionError("the call was not refused");
  }

  @Test
  void aCallWithoutCredentialsIsUnauthenticatedOnEveryDoor() throws Exception {
    Status read = statusOf(() -> docs(null).getPipeDocManifest(manifestOf(acmeDoc)));
    assertThat(read.getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
    assertThat(read.getDescription()).contains("authorization: no caller token");

    assertThat(hello(null, "parser").getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
  }

  @Test
  void aTokenStsRefusesIsUnauthenticated() {
    Status wrongSecret =
        statusOf(
            () ->
                PipeDocServiceGrpc.newBlockingStub(channel)
                    .withCallCredentials(callers.signedWith("acme-operator-key", "guessed"))
                    .getPipeDocManifest(manifestOf(acmeDoc)));
    assertThat(wrongSecret.getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
    assertThat(wrongSecret.getDescription()).contains("SignatureDoesNotMatch");

    Status unknownKey =
        statusOf(
            () ->
                PipeDocServiceGrpc.newBlockingStub(channel)
                    .withCallCredentials(callers.signedWith("nobody", "nothing"))
                    .getPipeDocManifest(manifestOf(acmeDoc)));
    assertThat(unknownKey.getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
    assertThat(unknownKey.getDescription()).contains("InvalidClientTokenId");
  }

  @Test
  void aTokenForAnotherGatewayOrNamingNoneIsUnauthenticatedAndNamesNeither() {
    Status elsewhere =
        statusOf(
            () ->
                PipeDocServiceGrpc.newBlockingStub(channel)
                    .withCallCredentials(
                        callers.credentialsFor("acme-operator", "protomolt-other-gateway"))
                    .getPipeDocManifest(manifestOf(acmeDoc)));
    Status unbound =
        statusOf(
            () ->
                PipeDocServiceGrpc.newBlockingStub(channel)
                    .withCallCredentials(fixed(callers.tokenWithoutAudience("acme-operator")))
                    .getPipeDocManifest(manifestOf(acmeDoc)));
    for (Status refused : List.of(elsewhere, unbound)) {
      assertThat(refused.getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
      // The refusal says nothing about which gateway this is or which one the token named.
      assertThat(refused.getDescription())
          .doesNotContain(LocalCallers.AUDIENCE)
          .doesNotContain("protomolt-other-gateway");
    }
    assertThat(elsewhere.getDescription()).contains("SignatureDoesNotMatch");
    assertThat(unbound.getDescription()).contains(CallerToken.AUDIENCE_HEADER);
    // The same operator signing for this gateway reads its document.
    assertThat(
            docs("acme-operator")
                .getPipeDoc(GetPipeDocRequest.newBuilder().setDocumentRef(acmeDoc).build())
                .getPipedoc())
        .isEqualTo(acmeContent);
  }

  /** Call credentials presenting one token as it is, as a client signing by hand would. */
  private static CallCredentials fixed(String token) {
    return new CallCredentials() {
      @Override
      public void applyRequestMetadata(
          RequestInfo info, java.util.concurrent.Executor executor, MetadataApplier applier) {
        Metadata headers = new Metadata();
        headers.put(CallerToken.METADATA_KEY, token);
        applier.apply(headers);
      }
    };
  }

  @Test
  void theAccountsOperatorReadsItsDocument() {
    assertThat(
            docs("acme-operator")
                .getPipeDoc(GetPipeDocRequest.newBuilder().setDocumentRef(acmeDoc).build())
                .getPipedoc())
        .isEqualTo(acmeContent);
    assertThat(
            docs("platform-operator")
                .getPipeDoc(GetPipeDocRequest.newBuilder().setDocumentRef(acmeDoc).build())
                .getPipedoc())
        .isEqualTo(acmeContent);
  }

  @Test
  void anotherAccountsOperatorIsDeniedAlikeWhetherOrNotTheDocumentExists() {
    DocumentReference missing = acmeDoc.toBuilder().setDocId("no-such-doc").build();

    Status existing = statusOf(() -> docs("beta-operator").getPipeDocManifest(manifestOf(acmeDoc)));
    Status absent = statusOf(() -> docs("beta-operator").getPipeDocManifest(manifestOf(missing)));

    assertThat(existing.getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
    assertThat(absent.getCode()).isEqualTo(existing.getCode());
    assertThat(absent.getDescription()).isEqualTo(existing.getDescription());
    assertThat(existing.getDescription())
        .isEqualTo(LocalCallers.BETA_OPERATOR_ROLE + " may not act on account 'acme'");
  }

  @Test
  void aRefusedSaveWritesNothing() {
    PipeDoc doc = SampleDocs.document("doc-refused-save", 1, 16);
    SavePipeDocRequest save = Saves.intake("acme", "ds", doc).build();

    Status refused = statusOf(() -> docs("beta-operator").savePipeDoc(save));

    assertThat(refused.getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
    assertThat(rowsOf(doc.getDocId())).isZero();
    // The count can see a save: the same request from acme's operator is stored.
    docs("acme-operator").savePipeDoc(save);
    assertThat(rowsOf(doc.getDocId())).isEqualTo(1);
  }

  private static int rowsOf(String docId) {
    try (Connection c = h.postgres.dataSource().getConnection();
        var q = c.prepareStatement("SELECT count(*) FROM pipedocs WHERE doc_id = ?")) {
      q.setString(1, docId);
      try (var rows = q.executeQuery()) {
        rows.next();
        return rows.getInt(1);
      }
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void aPrincipalOverItsOperatorRateIsRefusedWithoutSlowingOthers() throws Exception {
    Map<String, String> env = settings();
    // One call a second, bursts of two: ten calls in a row cannot all fit.
    env.put("PROTOMOLT_GATEWAY_OPERATOR_RATE", "1");
    try (GatewayMain limited = GatewayMain.start(GatewayConfig.from(env))) {
      ManagedChannel slow =
          NettyChannelBuilder.forAddress("127.0.0.1", limited.port()).usePlaintext().build();
      try {
        Status exhausted = null;
        int served = 0;
        for (int i = 0; i < 10 && exhausted == null; i++) {
          try {
            PipeDocServiceGrpc.newBlockingStub(slow)
                .withCallCredentials(callers.credentials("acme-operator"))
                .getPipeDocManifest(manifestOf(acmeDoc));
            served++;
          } catch (StatusRuntimeException e) {
            exhausted = e.getStatus();
          }
        }
        assertThat(exhausted).as("the limit refused a call").isNotNull();
        assertThat(served).as("the burst was served first").isGreaterThanOrEqualTo(2);
        assertThat(exhausted.getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
        assertThat(exhausted.getDescription())
            .contains(LocalCallers.ACME_OPERATOR_ROLE)
            .contains("rate limit on the gateway's operator doors (1 calls per second")
            .contains("retry in");
        // Another principal's budget is its own.
        assertThat(
                PipeDocServiceGrpc.newBlockingStub(slow)
                    .withCallCredentials(callers.credentials("platform-operator"))
                    .getPipeDocManifest(manifestOf(acmeDoc))
                    .hasManifest())
            .isTrue();
      } finally {
        slow.shutdownNow();
      }
    }
  }

  @Test
  void aModulePrincipalMayNotUseTheOperatorDoors() {
    Status read = statusOf(() -> docs("parser").getPipeDocManifest(manifestOf(acmeDoc)));

    assertThat(read.getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
  }

  @Test
  void aDoorNamingNoAccountNeedsAPlatformOperator() {
    ListDatasourceGrantsRequest list =
        ListDatasourceGrantsRequest.newBuilder().setDatasourceId("ds").build();
    Status refused =
        statusOf(
            () ->
                DatasourceGrantServiceGrpc.newBlockingStub(channel)
                    .withCallCredentials(callers.credentials("acme-operator"))
                    .listDatasourceGrants(list));
    assertThat(refused.getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
    assertThat(refused.getDescription()).contains("needs an operator of every account (*)");

    assertThat(
            DatasourceGrantServiceGrpc.newBlockingStub(channel)
                .withCallCredentials(callers.credentials("platform-operator"))
                .listDatasourceGrants(list)
                .getGrantsCount())
        .isZero();
  }

  @Test
  void aModuleMayOpenWorkStreamsOnlyForItsOwnModules() throws Exception {
    Status other = hello(callers.credentials("parser"), "chunker");
    assertThat(other.getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
    assertThat(other.getDescription())
        .isEqualTo(LocalCallers.PARSER_ROLE + " may not serve module 'chunker'");

    assertThat(hello(callers.credentials("acme-operator"), "parser").getCode())
        .isEqualTo(Status.Code.PERMISSION_DENIED);

    assertThat(helloAnswer(callers.credentials("parser"), "parser").hasNoWork()).isTrue();
  }

  @Test
  void anAckOfAUnitThisStreamWasNotServedIsRefused() throws Exception {
    CompletableFuture<WorkResponse> answer = new CompletableFuture<>();
    StreamObserver<WorkRequest> requests = work(callers.credentials("parser"), answer);
    requests.onNext(
        WorkRequest.newBuilder()
            .setHello(Hello.newBuilder().setModuleId("parser").setInstanceId("ack-test"))
            .build());
    // Before any unit is served on the stream, an ack of any unit id settles nothing.
    requests.onNext(
        WorkRequest.newBuilder()
            .setAck(WorkAck.newBuilder().setWorkUnitId("someone-elses-unit"))
            .build());

    assertThatThrownBy(() -> answer.get(30, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT));
  }

  @Test
  void aForeignClientFromTheProtoFilesAloneGetsTheDataOnlyAsTheRightAccount() throws Exception {
    assumeTrue(
        nodeRuns(),
        "node is not on PATH: the foreign-client test needs Node.js 20+ (.ci/run has it)");
    Path client = Path.of(System.getProperty("foreign.client.dir", "target/foreign-client"));
    assertThat(client.resolve("node_modules/@grpc/grpc-js"))
        .as("the build installs the client's packages with npm ci (generate-test-resources)")
        .isDirectory();
    ProcessBuilder run = new ProcessBuilder("node", "client.mjs").directory(client.toFile());
    run.environment().put("GATEWAY", "127.0.0.1:" + gateway.port());
    run.environment()
        .put(
            "PROTO_DIR",
            Path.of(System.getProperty("proto.dir", "../proto/src/main/proto"))
                .toAbsolutePath()
                .toString());
    run.environment()
        .put("DOC_REF", JsonFormat.printer().preservingProtoFieldNames().print(acmeDoc));
    run.environment().put("ACME_TOKEN", callers.credentials("acme-operator").token());
    run.environment().put("BETA_TOKEN", callers.credentials("beta-operator").token());
    run.redirectErrorStream(true);
    Process process = run.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as(output).isTrue();
    assertThat(process.exitValue()).as(output).isZero();

    assertThat(output.lines())
        .as(output)
        .anySatisfy(
            l ->
                assertThat(l)
                    .contains("\"call\":\"manifest-without-credentials\"")
                    .contains("\"code\":\"UNAUTHENTICATED\""))
        .anySatisfy(
            l ->
                assertThat(l)
                    .contains("\"call\":\"work-without-credentials\"")
                    .contains("\"code\":\"UNAUTHENTICATED\""))
        .anySatisfy(
            l ->
                assertThat(l)
                    .contains("\"call\":\"manifest-as-another-account\"")
                    .contains("\"code\":\"PERMISSION_DENIED\""))
        .anySatisfy(
            l ->
                assertThat(l)
                    .contains("\"call\":\"manifest-as-its-account\"")
                    .contains("\"code\":\"OK\"")
                    .contains("\"docId\":\"" + acmeDoc.getDocId() + "\""));
  }

  private static boolean nodeRuns() {
    try {
      Process p = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * A deactivation reaches every gateway task, not only the one whose account-events consumer
   * applied it: two gateways that both trust account gamma as active (cached for five minutes)
   * both refuse its saves once the event is on the topic.
   */
  @Test
  void everyGatewayStopsServingADeactivatedAccountAfterItsEvent() throws Exception {
    h.store.onAccountEvent(StoreHarness.platformAccount("gamma"));
    AtomicInteger saves = new AtomicInteger();
    try (GatewayMain second = GatewayMain.start(GatewayConfig.from(settings()));
        KafkaProducer<String, byte[]> producer =
            new KafkaProducer<>(
                Map.<String, Object>of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                new StringSerializer(),
                new ByteArraySerializer())) {
      gateway.accountEventsPositioned().get(60, TimeUnit.SECONDS);
      second.accountEventsPositioned().get(60, TimeUnit.SECONDS);
      ManagedChannel other =
          NettyChannelBuilder.forAddress("127.0.0.1", second.port()).usePlaintext().build();
      try {
        // Both tasks now hold gamma as active for the cache's five minutes.
        assertThat(saveAsGamma(channel, saves)).isEqualTo(Status.Code.OK);
        assertThat(saveAsGamma(other, saves)).isEqualTo(Status.Code.OK);

        // The event is on the topic every task reads. The account-events function has not
        // written it to the ledger yet (here: never), which must not matter: the event is the
        // truth, and a task that reloaded "active" from the ledger would serve gamma again.
        AccountEvent deactivated =
            AccountEvent.newBuilder()
                .setAccountId("gamma")
                .setType(AccountEventType.ACCOUNT_EVENT_TYPE_DEACTIVATED)
                .build();
        producer
            .send(new ProducerRecord<>(AccountEventFeed.TOPIC, "gamma", deactivated.toByteArray()))
            .get(30, TimeUnit.SECONDS);

        // Well inside the five-minute cache: what ends the wait is each task's feed.
        Eventually.until(
            "both gateways refuse gamma's saves",
            Duration.ofSeconds(60),
            () ->
                saveAsGamma(channel, saves) == Status.Code.PERMISSION_DENIED
                    && saveAsGamma(other, saves) == Status.Code.PERMISSION_DENIED);
      } finally {
        other.shutdownNow();
      }
    }
  }

  private static Status.Code saveAsGamma(ManagedChannel to, AtomicInteger saves) {
    try {
      PipeDocServiceGrpc.newBlockingStub(to)
          .withCallCredentials(callers.credentials("platform-operator"))
          .savePipeDoc(
              Saves.intake(
                      "gamma",
                      "ds",
                      SampleDocs.document("doc-suspend-" + saves.incrementAndGet(), 1, 16))
                  .build());
      return Status.Code.OK;
    } catch (StatusRuntimeException e) {
      return e.getStatus().getCode();
    }
  }

  private static Status hello(GatewayCallCredentials credentials, String module) throws Exception {
    try {
      WorkResponse response = helloAnswer(credentials, module);
      throw new AssertionError("the work stream was not refused: " + response);
    } catch (ExecutionException e) {
      return Status.fromThrowable(e.getCause());
    }
  }

  private static WorkResponse helloAnswer(GatewayCallCredentials credentials, String module)
      throws Exception {
    CompletableFuture<WorkResponse> answer = new CompletableFuture<>();
    StreamObserver<WorkRequest> requests = work(credentials, answer);
    requests.onNext(
        WorkRequest.newBuilder()
            .setHello(Hello.newBuilder().setModuleId(module).setInstanceId("access-test"))
            .build());
    try {
      return answer.get(30, TimeUnit.SECONDS);
    } finally {
      requests.onCompleted();
    }
  }

  private static StreamObserver<WorkRequest> work(
      GatewayCallCredentials credentials, CompletableFuture<WorkResponse> answer) {
    ModuleWorkServiceGrpc.ModuleWorkServiceStub stub = ModuleWorkServiceGrpc.newStub(channel);
    if (credentials != null) {
      stub = stub.withCallCredentials(credentials);
    }
    return stub.work(
        new StreamObserver<>() {
          @Override
          public void onNext(WorkResponse value) {
            answer.complete(value);
          }

          @Override
          public void onError(Throwable t) {
            answer.completeExceptionally(t);
          }

          @Override
          public void onCompleted() {
            answer.completeExceptionally(new AssertionError("the stream ended without an answer"));
          }
        });
  }
}
