package dev.protomolt.gateway.diagnostics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.protobuf.util.JsonFormat;
import dev.protomolt.gateway.GatewayConfig;
import dev.protomolt.gateway.GatewayMain;
import dev.protomolt.gateway.LocalCallers;
import dev.protomolt.localstack.cloud.LocalKafka;
import dev.protomolt.proto.engine.v1.ConfigEntry;
import dev.protomolt.proto.engine.v1.DriveCoherence;
import dev.protomolt.proto.engine.v1.EffectiveConfigRequest;
import dev.protomolt.proto.engine.v1.EffectiveConfigResponse;
import dev.protomolt.proto.engine.v1.EngineDiagnosticsServiceGrpc;
import dev.protomolt.proto.engine.v1.ProbeClaimCheckRequest;
import dev.protomolt.proto.engine.v1.ProbeKafkaRequest;
import dev.protomolt.proto.engine.v1.ProbeResult;
import dev.protomolt.proto.engine.v1.StorageCoherenceRequest;
import dev.protomolt.proto.engine.v1.StorageCoherenceResponse;
import dev.protomolt.repository.fixtures.StoreHarness;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The diagnostics surface as the gateway process serves it: switched on, over gRPC and the admin
 * HTTP port; switched off, answering exactly what a server that never had it answers.
 */
class DiagnosticsSurfaceTest {

  static StoreHarness h;
  static LocalKafka kafka;
  static GatewayMain on;
  static GatewayMain off;
  static Server bare;
  static LocalCallers callers;
  static final HttpClient HTTP = HttpClient.newHttpClient();

  @BeforeAll
  static void start(@TempDir Path data) throws Exception {
    h = StoreHarness.start();
    h.store.onAccountEvent(StoreHarness.platformAccount("acme"));
    kafka = LocalKafka.start(data.resolve("kafka"), 0, 0);
    callers = new LocalCallers();
    on = GatewayMain.start(GatewayConfig.from(env(true)));
    off = GatewayMain.start(GatewayConfig.from(env(false)));
    // A gRPC server that never heard of diagnostics: what "absent" answers.
    bare = NettyServerBuilder.forPort(0).build().start();
  }

  @AfterAll
  static void stop() throws Exception {
    bare.shutdownNow();
    on.close();
    off.close();
    kafka.close();
    callers.close();
    h.close();
  }

  static Map<String, String> env(boolean diagnostics) throws Exception {
    String jdbcUrl;
    try (Connection c = h.postgres.dataSource().getConnection()) {
      jdbcUrl = c.getMetaData().getURL();
    }
    Map<String, String> env = new HashMap<>(callers.gatewaySettings());
    env.put("PROTOMOLT_GATEWAY_PORT", "0");
    env.put("PROTOMOLT_ADMIN_PORT", "0");
    env.put("PROTOMOLT_GATEWAY_MODULES", "parser");
    env.put("PROTOMOLT_GATEWAY_GROUP", "diagnostics-" + diagnostics);
    env.put("PROTOMOLT_KAFKA_BOOTSTRAP", kafka.bootstrapServers());
    env.put("PROTOMOLT_JDBC_URL", jdbcUrl);
    env.put("PROTOMOLT_JDBC_USER", "postgres");
    env.put("PROTOMOLT_JDBC_PASSWORD", "ledger-password");
    // Nothing here reaches Step Functions.
    env.put("PROTOMOLT_SFN_ENDPOINT", "http://127.0.0.1:9");
    env.put("PROTOMOLT_S3_CREDENTIALS_REFS", "platform");
    env.put("PROTOMOLT_S3_PLATFORM_ENDPOINT", h.platform.endpoint().toString());
    env.put("PROTOMOLT_S3_PLATFORM_PATH_STYLE", "true");
    env.put("PROTOMOLT_S3_PLATFORM_ACCESS_KEY_ID", "platform-key");
    env.put("PROTOMOLT_S3_PLATFORM_SECRET_ACCESS_KEY", "platform-secret");
    if (diagnostics) {
      env.put("PROTOMOLT_DIAGNOSTICS_ENABLED", "true");
    }
    return env;
  }

  static <T> T withChannel(int port, java.util.function.Function<ManagedChannel, T> call) {
    ManagedChannel channel =
        NettyChannelBuilder.forAddress("127.0.0.1", port)
            .usePlaintext()
            // Diagnostics is an operator door: called as an operator of every account.
            .intercept(callers.credentials("platform-operator").interceptor())
            .build();
    try {
      return call.apply(channel);
    } finally {
      channel.shutdownNow();
      try {
        channel.awaitTermination(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  static Status probeKafkaStatus(int port) {
    return withChannel(
        port,
        ch ->
            catchThrowableOfType(
                    StatusRuntimeException.class,
                    () ->
                        EngineDiagnosticsServiceGrpc.newBlockingStub(ch)
                            .probeKafka(ProbeKafkaRequest.getDefaultInstance()))
                .getStatus());
  }

  /** A GET signed as the operator of every account, as the shell's callers sign. */
  static HttpResponse<String> get(GatewayMain gateway, String pathAndQuery) throws Exception {
    return get(gateway, pathAndQuery, callers.credentials("platform-operator").token());
  }

  /** A GET with {@code authorization} as its header (null: none). */
  static HttpResponse<String> get(GatewayMain gateway, String pathAndQuery, String authorization)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + gateway.adminPort().orElseThrow() + pathAndQuery))
            .GET();
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  static HttpResponse<String> post(GatewayMain gateway, String path, String body) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + gateway.adminPort().orElseThrow() + path))
            .header("Authorization", callers.credentials("platform-operator").token())
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void switchedOffTheGrpcServiceAnswersWhatAServerWithoutItAnswers() {
    Status offStatus = probeKafkaStatus(off.port());
    Status absent = probeKafkaStatus(bare.getPort());
    assertThat(offStatus.getCode()).isEqualTo(Status.Code.UNIMPLEMENTED);
    assertThat(offStatus.getCode()).isEqualTo(absent.getCode());
    assertThat(offStatus.getDescription()).isEqualTo(absent.getDescription());
  }

  @Test
  void switchedOffTheRestShellAnswersTheSame404AsAPathThatNeverExisted() throws Exception {
    HttpResponse<String> never = get(on, "/engine/diagnostics/no-such-probe");
    for (String path :
        new String[] {
          "/engine/diagnostics/config", "/engine/diagnostics/kafka", "/engine/diagnostics/hop"
        }) {
      // Signed or not, switched off is absent: no 401 hints that something is there.
      for (String authorization :
          new String[] {callers.credentials("platform-operator").token(), null}) {
        HttpResponse<String> offAnswer = get(off, path, authorization);
        assertThat(offAnswer.statusCode()).isEqualTo(404);
        assertThat(offAnswer.statusCode()).isEqualTo(never.statusCode());
        assertThat(offAnswer.body()).isEqualTo(never.body());
        assertThat(offAnswer.headers().firstValue("Content-Type"))
            .isEqualTo(never.headers().firstValue("Content-Type"));
        assertThat(offAnswer.headers().firstValue("WWW-Authenticate")).isEmpty();
      }
    }
    // The admin port itself is up either way.
    assertThat(get(off, "/health").statusCode()).isEqualTo(200);
  }

  @Test
  void effectiveConfigNamesEachSettingsSourceAndRedactsSecrets() throws Exception {
    var entries =
        withChannel(
            on.port(),
            ch ->
                EngineDiagnosticsServiceGrpc.newBlockingStub(ch)
                    .getEffectiveConfig(EffectiveConfigRequest.getDefaultInstance())
                    .getEntriesList());
    Map<String, ConfigEntry> byKey = new HashMap<>();
    entries.forEach(e -> byKey.put(e.getKey(), e));
    assertThat(byKey.get("PROTOMOLT_S3_PLATFORM_SECRET_ACCESS_KEY").getValue())
        .isEqualTo("<redacted>");
    assertThat(byKey.get("PROTOMOLT_JDBC_PASSWORD").getValue()).isEqualTo("<redacted>");
    assertThat(byKey.get("PROTOMOLT_GATEWAY_MODULES").getValue()).isEqualTo("parser");
    assertThat(byKey.get("PROTOMOLT_GATEWAY_MODULES").getSource()).isEqualTo("environment");
    assertThat(byKey.get("PROTOMOLT_GATEWAY_PARTITION_CAPACITY").getValue())
        .isEqualTo(Integer.toString(GatewayConfig.DEFAULT_PARTITION_CAPACITY));
    assertThat(byKey.get("PROTOMOLT_GATEWAY_PARTITION_CAPACITY").getSource()).isEqualTo("default");
    assertThat(byKey.get("gateway.noWorkWait").getSource()).isEqualTo("default");
    assertThat(entries.toString()).doesNotContain("platform-secret", "ledger-password");

    // The REST shell answers the same message in the protobuf JSON mapping, filtered by prefix.
    HttpResponse<String> http = get(on, "/engine/diagnostics/config?prefix=PROTOMOLT_S3_");
    assertThat(http.statusCode()).isEqualTo(200);
    EffectiveConfigResponse.Builder parsed = EffectiveConfigResponse.newBuilder();
    JsonFormat.parser().merge(http.body(), parsed);
    assertThat(parsed.getEntriesList())
        .extracting(ConfigEntry::getKey)
        .allMatch(k -> k.startsWith("PROTOMOLT_S3_"))
        .contains("PROTOMOLT_S3_PLATFORM_SECRET_ACCESS_KEY");
    assertThat(parsed.getEntriesList())
        .filteredOn(e -> e.getKey().equals("PROTOMOLT_S3_PLATFORM_SECRET_ACCESS_KEY"))
        .extracting(ConfigEntry::getValue)
        .containsExactly("<redacted>");
    assertThat(http.body()).doesNotContain("platform-secret");
  }

  @Test
  void probesRunOverGrpcAndTheRestShellAgainstTheGatewaysOwnAdapters() throws Exception {
    ProbeResult claim =
        withChannel(
            on.port(),
            ch ->
                EngineDiagnosticsServiceGrpc.newBlockingStub(ch)
                    .probeClaimCheck(
                        ProbeClaimCheckRequest.newBuilder().setAccountId("acme").build()));
    assertThat(claim.getError()).isEmpty();
    assertThat(claim.getOk()).isTrue();

    HttpResponse<String> kafkaProbe = post(on, "/engine/diagnostics/kafka", "{}");
    assertThat(kafkaProbe.statusCode()).isEqualTo(200);
    assertThat(kafkaProbe.body()).contains("\"ok\": true", "\"probe\": \"kafka\"");

    HttpResponse<String> hop = get(on, "/engine/diagnostics/hop?node_id=parser");
    assertThat(hop.statusCode()).isEqualTo(200);
    assertThat(hop.body()).contains("graph_id: required").doesNotContain("\"ok\": true");

    HttpResponse<String> drafts = get(on, "/engine/diagnostics/drafts");
    assertThat(drafts.body()).contains("PROTOMOLT_DRAFTS_TABLE");
  }

  @Test
  void storageCoherenceIsServedReadOnlyAndRefusesAMissingOrUnknownAccount() throws Exception {
    HttpResponse<String> clean = get(on, "/engine/diagnostics/storage/coherence?account_id=acme");
    assertThat(clean.statusCode()).isEqualTo(200);
    StorageCoherenceResponse.Builder parsed = StorageCoherenceResponse.newBuilder();
    JsonFormat.parser().merge(clean.body(), parsed);
    assertThat(parsed.getDrivesList())
        .extracting(DriveCoherence::getDriveName)
        .containsExactlyInAnyOrder("acme:intake", "acme:pipeline");
    assertThat(parsed.getCoherent()).isTrue();

    HttpResponse<String> unknown =
        get(on, "/engine/diagnostics/storage/coherence?account_id=nobody");
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(unknown.body()).contains("account_id: account 'nobody' has no drives");
    Status missing =
        withChannel(
            on.port(),
            ch ->
                catchThrowableOfType(
                        StatusRuntimeException.class,
                        () ->
                            EngineDiagnosticsServiceGrpc.newBlockingStub(ch)
                                .getStorageCoherence(StorageCoherenceRequest.getDefaultInstance()))
                    .getStatus());
    assertThat(missing.getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(missing.getDescription()).startsWith("account_id: required");
  }

  @Test
  void aMalformedRestRequestIsRefusedNamingTheMessageAndTheProblem() throws Exception {
    HttpResponse<String> bad = get(on, "/engine/diagnostics/hop?graph_id=g&version=many");
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(bad.body()).contains("ProbeHopRequest", "version: ", "many");
    HttpResponse<String> badBody = post(on, "/engine/diagnostics/hop", "{\"version\": \"many\"}");
    assertThat(badBody.statusCode()).isEqualTo(400);
    assertThat(badBody.body()).contains("ProbeHopRequest", "many");
    HttpResponse<String> unknownField = get(on, "/engine/diagnostics/claim-check?account=acme");
    assertThat(unknownField.statusCode()).isEqualTo(400);
    assertThat(unknownField.body()).contains("ProbeClaimCheckRequest", "account");
  }

  @Test
  void theRestShellRefusesACallerWithoutAVerifiedTokenWith401() throws Exception {
    for (String authorization : new String[] {null, "Bearer not-a-token", "Basic dXNlcjpwYXNz"}) {
      HttpResponse<String> refused =
          get(on, "/engine/diagnostics/storage/coherence?account_id=acme", authorization);
      assertThat(refused.statusCode()).isEqualTo(401);
      assertThat(refused.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
      // The refusal is about the token only: it names no account, drive or probe result.
      assertThat(refused.body()).doesNotContain("acme", "drive", "\"ok\"");
    }
    // Unknown and known accounts, unsigned, get the same answer.
    HttpResponse<String> unknown =
        get(on, "/engine/diagnostics/storage/coherence?account_id=nobody", null);
    HttpResponse<String> known =
        get(on, "/engine/diagnostics/storage/coherence?account_id=acme", null);
    assertThat(unknown.statusCode()).isEqualTo(known.statusCode()).isEqualTo(401);
    assertThat(unknown.body()).isEqualTo(known.body());
  }

  @Test
  void theRestShellRefusesAnOperatorOfAnotherAccountWith403AsTheGrpcDoorDoes() throws Exception {
    String acmeOperator = callers.credentials("acme-operator").token();
    HttpResponse<String> beta =
        get(on, "/engine/diagnostics/storage/coherence?account_id=beta", acmeOperator);
    assertThat(beta.statusCode()).isEqualTo(403);
    assertThat(beta.body()).contains("may not act on account 'beta'");
    // An account that does not exist is refused exactly like one that does.
    HttpResponse<String> nobody =
        get(on, "/engine/diagnostics/storage/coherence?account_id=nobody", acmeOperator);
    assertThat(nobody.statusCode()).isEqualTo(403);
    assertThat(nobody.body()).isEqualTo(beta.body().replace("'beta'", "'nobody'"));
    // A probe naming no account needs an operator of every account, as over gRPC.
    HttpResponse<String> config = get(on, "/engine/diagnostics/config", acmeOperator);
    assertThat(config.statusCode()).isEqualTo(403);
    assertThat(config.body()).contains("GetEffectiveConfig", "operator of every account");
    // Its own account is served.
    HttpResponse<String> own =
        get(on, "/engine/diagnostics/storage/coherence?account_id=acme", acmeOperator);
    assertThat(own.statusCode()).isEqualTo(200);
    assertThat(own.body()).contains("acme:pipeline");
  }
}
