package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.engine.v1.ListGraphsRequest;
import dev.protomolt.proto.engine.v1.PipelineGraphServiceGrpc;
import dev.protomolt.proto.module.v1.Hello;
import dev.protomolt.proto.module.v1.ModuleWorkServiceGrpc;
import dev.protomolt.proto.module.v1.WorkRequest;
import dev.protomolt.proto.module.v1.WorkResponse;
import dev.protomolt.proto.repository.v1.GetPipeDocManifestRequest;
import dev.protomolt.proto.repository.v1.PipeDocServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
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
 * principals {@code up} registers, verified by the local STS, and anyone else is refused.
 */
@ExtendWith(SharedPlatform.Resolver.class)
class LocalPlatformAccessTest {

  private static LocalPlatform platform;
  private static ManagedChannel channel;

  @BeforeAll
  static void connect(SharedPlatform shared) {
    platform = shared.platform();
    channel =
        NettyChannelBuilder.forAddress("127.0.0.1", platform.gatewayPort()).usePlaintext().build();
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
