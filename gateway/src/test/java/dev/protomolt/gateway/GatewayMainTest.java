package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.localstack.cloud.LocalKafka;
import dev.protomolt.proto.config.v1.IndexPlan;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.engine.v1.DatasourceGrantServiceGrpc;
import dev.protomolt.proto.engine.v1.DeclareIndexPlansRequest;
import dev.protomolt.proto.engine.v1.GrantDatasourceRequest;
import dev.protomolt.proto.engine.v1.IndexPlanServiceGrpc;
import dev.protomolt.proto.engine.v1.ListIndexPlansRequest;
import dev.protomolt.proto.module.v1.GetModuleBacklogRequest;
import dev.protomolt.proto.module.v1.Hello;
import dev.protomolt.proto.module.v1.ModuleBacklogServiceGrpc;
import dev.protomolt.proto.module.v1.ModuleWorkServiceGrpc;
import dev.protomolt.proto.module.v1.WorkRequest;
import dev.protomolt.proto.module.v1.WorkResponse;
import dev.protomolt.proto.repository.v1.GetPipeDocRequest;
import dev.protomolt.proto.repository.v1.PipeDocServiceGrpc;
import dev.protomolt.repository.fixtures.SampleDocs;
import dev.protomolt.repository.fixtures.Saves;
import dev.protomolt.repository.fixtures.StoreHarness;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The process wiring: real adapters from configuration, both services on one port. */
class GatewayMainTest {

  @TempDir Path data;

  @Test
  void servesModuleWorkAndTheDocumentStoreOnOnePortFromConfiguration() throws Exception {
    try (StoreHarness h = StoreHarness.start();
        LocalKafka kafka = LocalKafka.start(data.resolve("kafka"), 0, 0);
        LocalCallers callers = new LocalCallers()) {
      h.store.onAccountEvent(StoreHarness.platformAccount("acme"));
      PipeDoc doc = SampleDocs.document("doc-main", 3, 256);
      DocumentReference ref =
          h.store.save(Saves.intake("acme", "ds", doc).build()).getDocumentRef();
      String jdbcUrl;
      try (Connection c = h.postgres.dataSource().getConnection()) {
        jdbcUrl = c.getMetaData().getURL();
      }
      Map<String, String> env = new HashMap<>(callers.gatewaySettings());
      env.put("PROTOMOLT_GATEWAY_PORT", "0");
      env.put("PROTOMOLT_GATEWAY_MODULES", "parser");
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

      try (GatewayMain gateway = GatewayMain.start(GatewayConfig.from(env))) {
        // The operator doors are called as an operator of every account, the work stream as the
        // parser module's principal.
        ManagedChannel channel =
            NettyChannelBuilder.forAddress("127.0.0.1", gateway.port())
                .usePlaintext()
                .intercept(callers.credentials("platform-operator").interceptor())
                .build();
        try {
          PipeDoc read =
              PipeDocServiceGrpc.newBlockingStub(channel)
                  .getPipeDoc(GetPipeDocRequest.newBuilder().setDocumentRef(ref).build())
                  .getPipedoc();
          assertThat(read).isEqualTo(doc);

          // The operator doors the production gateway serves beside module work: a sink's plan
          // declaration lands in the ledger, and a grant that names nothing owned is refused
          // naming the field, not UNIMPLEMENTED.
          IndexPlan plan =
              IndexPlan.newBuilder()
                  .setPlanId("main-test-plan")
                  .setModuleId("main-test-sink")
                  .setIndexName("main-test-index")
                  .build();
          IndexPlanServiceGrpc.newBlockingStub(channel)
              .declareIndexPlans(DeclareIndexPlansRequest.newBuilder().addPlans(plan).build());
          assertThat(
                  IndexPlanServiceGrpc.newBlockingStub(channel)
                      .listIndexPlans(
                          ListIndexPlansRequest.newBuilder().setModuleId("main-test-sink").build())
                      .getPlansList())
              .extracting(IndexPlan::getPlanId)
              .containsExactly("main-test-plan");
          assertThatThrownBy(
                  () ->
                      DatasourceGrantServiceGrpc.newBlockingStub(channel)
                          .grantDatasource(GrantDatasourceRequest.getDefaultInstance()))
              .isInstanceOfSatisfying(
                  StatusRuntimeException.class,
                  e -> assertThat(e.getStatus().getCode()).isNotEqualTo(Status.Code.UNIMPLEMENTED));

          // The backlog door answers a platform operator with each module service's figures.
          assertThat(
                  ModuleBacklogServiceGrpc.newBlockingStub(channel)
                      .getModuleBacklog(GetModuleBacklogRequest.getDefaultInstance())
                      .getModuleServicesList())
              .singleElement()
              .satisfies(
                  b -> {
                    assertThat(b.getModuleId()).isEqualTo("parser");
                    assertThat(b.getQueued()).isZero();
                    assertThat(b.getUnitsInFlight()).isZero();
                    assertThat(b.getGroupLag()).isZero();
                  });
          // ...and refuses a module's principal, which is no operator.
          assertThatThrownBy(
                  () ->
                      ModuleBacklogServiceGrpc.newBlockingStub(channel)
                          .withCallCredentials(callers.credentials("parser"))
                          .getModuleBacklog(GetModuleBacklogRequest.getDefaultInstance()))
              .isInstanceOfSatisfying(
                  StatusRuntimeException.class,
                  e ->
                      assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED));

          CompletableFuture<WorkResponse> answer = new CompletableFuture<>();
          var requests =
              ModuleWorkServiceGrpc.newStub(channel)
                  .withCallCredentials(callers.credentials("parser"))
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
                  .setHello(Hello.newBuilder().setModuleId("parser").setInstanceId("main-test"))
                  .build());
          assertThat(answer.get(30, TimeUnit.SECONDS).hasNoWork()).isTrue();
          requests.onCompleted();
        } finally {
          channel.shutdownNow();
        }
      }
    }
  }
}
