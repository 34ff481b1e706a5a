package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.util.JsonFormat;
import dev.protomolt.core.metrics.RecordingMetricsSink;
import dev.protomolt.engine.graphs.PostgresDatasourceBindings;
import dev.protomolt.identity.GatewayTransport;
import dev.protomolt.lambda.NamedHandlers;
import dev.protomolt.localstack.cloud.LocalCloud;
import dev.protomolt.localstack.cloud.LocalCloudSettings;
import dev.protomolt.localstack.lambda.LambdaResult;
import dev.protomolt.localstack.template.DeployedFunction;
import dev.protomolt.localstack.template.DeployedStack;
import dev.protomolt.localstack.template.TemplateDeployer;
import dev.protomolt.localstack.template.TemplatePlan;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.engine.v1.IndexPlanServiceGrpc;
import dev.protomolt.proto.engine.v1.ListIndexPlansRequest;
import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The synthesized local template deployed onto the local cloud with the zip's functions and the
 * gateway's task, configured only from the environment the template gives them: the migration
 * custom resource runs through RDS-Proxy-style access (IAM token, TLS) to the embedded database,
 * the topics resource creates the stack's topics, the gateway task serves on the port it is given,
 * and graph admin stores a graph in the ledger through the same access.
 */
class LocalTemplateDeployTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path data;

  @Test
  void theStackDeploysAndGraphAdminStoresAGraphThroughItsOwnEnvironment() throws Exception {
    RecordingMetricsSink metrics = new RecordingMetricsSink("local");
    GatewayTaskRuntime gateway = new GatewayTaskRuntime(OptionalInt.of(0), metrics);
    ZipFunctionRuntime functions = new ZipFunctionRuntime(metrics);
    try (LocalCloud cloud = LocalCloud.start(LocalCloudSettings.ephemeral(data))) {
      TemplatePlan plan =
          TemplateDeployer.plan(
              LocalTemplate.template(), LocalTemplate.STACK_NAME, cloud, functions, gateway);
      try (DeployedStack stack = TemplateDeployer.deploy(plan, cloud, functions, gateway)) {
        Set<String> templateTopics = topics(cloud);
        assertThat(templateTopics).contains("pipeline-events", "pipestream.module.parser");
        assertThat(stack.functions())
            .extracting(DeployedFunction::handler)
            .containsExactlyInAnyOrderElementsOf(NamedHandlers.NAMES);
        assertThat(gateway.gateway())
            .hasValueSatisfying(g -> assertThat(g.port()).isPositive().isNotEqualTo(18100));

        // The template's TLS listener fronts the gateway task where it really listens, and a
        // call over TLS trusting the local CA is answered by the gateway itself: unsigned, it is
        // the gateway's UNAUTHENTICATED, not a transport failure (decision 1745).
        DeployedStack.TlsListener tls = stack.tlsListener().orElseThrow();
        assertThat(tls.targetPort()).isEqualTo(gateway.gateway().orElseThrow().port());
        ManagedChannel overTls =
            Grpc.newChannelBuilderForAddress(
                    "127.0.0.1",
                    tls.port(),
                    GatewayTransport.forGateway("127.0.0.1", tls.caFile(), "caFile"))
                .build();
        try {
          assertThatThrownBy(
                  () ->
                      IndexPlanServiceGrpc.newBlockingStub(overTls)
                          .withDeadlineAfter(30, TimeUnit.SECONDS)
                          .listIndexPlans(ListIndexPlansRequest.getDefaultInstance()))
              .isInstanceOfSatisfying(
                  StatusRuntimeException.class,
                  e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED));
        } finally {
          overTls.shutdownNow();
        }

        // What account events record in AWS: the datasource belongs to the account.
        new PostgresDatasourceBindings(cloud.database()).bind("ds-deploy", "acct-deploy");
        PipelineGraph graph = DemoGraph.of("acct-deploy", "ds-deploy", LocalPlatform.CLUSTER);
        ObjectNode create = JSON.createObjectNode();
        create.put("operation", "create");
        create.set("graph", JSON.readTree(JsonFormat.printer().print(graph)));
        JsonNode created = invoke(stack, create.toString());
        long version = created.path("version").asLong();
        assertThat(version).isPositive();

        assertThat(created.path("graphId").asText()).isEqualTo(graph.getGraphId());
        assertThat(templateTopics).contains("account-events", "storage-purge");
      }
    }
  }

  private static JsonNode invoke(DeployedStack stack, String payload) throws Exception {
    LambdaResult result = stack.invoke("protomolt-local-graph-admin", payload);
    if (result instanceof LambdaResult.Failure f) {
      throw new AssertionError("graph-admin failed: " + f.toJson());
    }
    return JSON.readTree(((LambdaResult.Success) result).payload());
  }

  private static Set<String> topics(LocalCloud cloud) throws Exception {
    try (Admin admin =
        Admin.create(
            Map.<String, Object>of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                cloud.endpoints().kafkaBootstrapServers()))) {
      return admin.listTopics().names().get(30, TimeUnit.SECONDS);
    }
  }
}
