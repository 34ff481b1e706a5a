package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.identity.GatewayTransport;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.engine.v1.ListGraphsRequest;
import dev.protomolt.proto.engine.v1.PipelineGraphServiceGrpc;
import dev.protomolt.proto.module.v1.Hello;
import dev.protomolt.proto.module.v1.ModuleWorkServiceGrpc;
import dev.protomolt.proto.module.v1.WorkRequest;
import dev.protomolt.proto.module.v1.WorkResponse;
import dev.protomolt.proto.repository.v1.GetPipeDocManifestRequest;
import dev.protomolt.proto.repository.v1.PipeDocServiceGrpc;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The local platform's gateway authenticates as a deployed one does: its callers are the
 * principals {@code up} registers, verified by the local STS, and anyone else is refused. Every
 * caller, the sample workers included, reaches it through the template's TLS listener.
 */
@ExtendWith(SharedPlatform.Resolver.class)
class LocalPlatformAccessTest {

  private static LocalPlatform platform;
  private static ManagedChannel channel;

  @BeforeAll
  static void connect(SharedPlatform shared) {
    platform = shared.platform();
    channel = platform.gatewayChannel().build();
  }

  @AfterAll
  static void close() {
    channel.shutdownNow();
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
  void theCliReachesTheGatewayOnlyThroughItsTlsFrontTrustingTheCaEnvNames() {
    Map<String, String> env = platform.environment();
    String gateway = env.get("PROTOMOLT_GATEWAY");
    String ca = env.get(GatewayTransport.CA_VARIABLE);
    // What `env` and `up` hand clients is the front, forwarding to the task's own port.
    assertThat(gateway).isEqualTo("127.0.0.1:" + platform.gatewayPort());
    assertThat(ca).isEqualTo(platform.gatewayCa().toString());
    assertThat(platform.gatewayPort()).isNotEqualTo(platform.gatewayTaskPort());
    assertThat(platform.stack().tlsListener().orElseThrow().targetPort())
        .isEqualTo(platform.gatewayTaskPort());

    CommandRun overTls = CommandRun.of("graph", "list", "--gateway", gateway, "--gateway-ca", ca);
    assertThat(overTls.status()).as("%s", overTls).isZero();

    // Without the CA the CLI dials a loopback gateway in plaintext, which the front never
    // forwards: the handshake fails, and the CLI says which setting is missing.
    CommandRun plaintext = CommandRun.of("graph", "list", "--gateway", gateway);
    assertThat(plaintext.status()).as("%s", plaintext).isEqualTo(CommandFailure.UNREACHABLE);
    assertThat(plaintext.err()).contains("--gateway-ca").contains("PROTOMOLT_GATEWAY_CA");
    ManagedChannel plain =
        Grpc.newChannelBuilderForAddress(
                "127.0.0.1", platform.gatewayPort(), InsecureChannelCredentials.create())
            .build();
    try {
      Status refused =
          statusOf(
              () ->
                  PipelineGraphServiceGrpc.newBlockingStub(plain)
                      .withCallCredentials(platform.operatorCredentials())
                      .withDeadlineAfter(30, TimeUnit.SECONDS)
                      .listGraphs(ListGraphsRequest.newBuilder().setClusterId("none").build()));
      // The client reads the front's TLS alert as a broken HTTP/2 connection or a closed one.
      assertThat(refused.getCode()).isIn(Status.Code.UNAVAILABLE, Status.Code.INTERNAL);
    } finally {
      plain.shutdownNow();
    }
  }

  @Test
  void aCallerWithoutCredentialsIsRefused() {
    GetPipeDocManifestRequest read =
        GetPipeDocManifestRequest.newBuilder()
            .setDocumentRef(DocumentReference.newBuilder().setAccountId("any").setDocId("d"))
            .build();

    assertThat(
            statusOf(() -> PipeDocServiceGrpc.newBlockingStub(channel).getPipeDocManifest(read))
                .getCode())
        .isEqualTo(Status.Code.UNAUTHENTICATED);
  }

  @Test
  void theCliSignsAsTheLocalOperatorAndAWrongKeyIsRefused() {
    ListGraphsRequest list = ListGraphsRequest.newBuilder().setClusterId("none").build();
    // The CLI's own credentials on loopback: the operator `up` registered, allowed every door.
    assertThat(
            PipelineGraphServiceGrpc.newBlockingStub(channel)
                .withCallCredentials(GatewayOption.credentials("127.0.0.1", Map.of()))
                .listGraphs(list)
                .getGraphsCount())
        .isZero();

    Map<String, String> wrong =
        Map.of(
            LocalPrincipals.OPERATOR_KEY_VARIABLE,
            LocalPrincipals.OPERATOR_ACCESS_KEY_ID,
            LocalPrincipals.OPERATOR_SECRET_VARIABLE,
            "guessed");
    Status refused =
        statusOf(
            () ->
                PipelineGraphServiceGrpc.newBlockingStub(channel)
                    .withCallCredentials(GatewayOption.credentials("127.0.0.1", wrong))
                    .listGraphs(list));
    assertThat(refused.getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
    assertThat(refused.getDescription()).contains("SignatureDoesNotMatch");
  }

  @Test
  void aSampleModulesPrincipalServesOnlyThatModule() throws Exception {
    CompletableFuture<WorkResponse> answer = new CompletableFuture<>();
    StreamObserver<WorkRequest> requests =
        ModuleWorkServiceGrpc.newStub(channel)
            .withCallCredentials(platform.moduleCredentials("parser"))
            .work(
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
                  public void onCompleted() {}
                });
    requests.onNext(
        WorkRequest.newBuilder()
            .setHello(Hello.newBuilder().setModuleId("chunker").setInstanceId("access-test"))
            .build());

    try {
      WorkResponse unexpected = answer.get(30, TimeUnit.SECONDS);
      throw new AssertionError("parser's principal was served chunker's work: " + unexpected);
    } catch (ExecutionException e) {
      assertThat(Status.fromThrowable(e.getCause()).getCode())
          .isEqualTo(Status.Code.PERMISSION_DENIED);
    }
  }
}
