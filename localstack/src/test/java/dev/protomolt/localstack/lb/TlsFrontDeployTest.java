package dev.protomolt.localstack.lb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.identity.GatewayTransport;
import dev.protomolt.localstack.cloud.LocalCloud;
import dev.protomolt.localstack.cloud.LocalCloudSettings;
import dev.protomolt.localstack.template.CloudFormationTemplate;
import dev.protomolt.localstack.template.ContainerRuntime;
import dev.protomolt.localstack.template.DeployedContainer;
import dev.protomolt.localstack.template.DeployedStack;
import dev.protomolt.localstack.template.FunctionRuntime;
import dev.protomolt.localstack.template.InvalidTemplateException;
import dev.protomolt.localstack.template.TemplateDeployer;
import dev.protomolt.localstack.template.TemplatePlan;
import dev.protomolt.proto.engine.v1.IndexPlanServiceGrpc;
import dev.protomolt.proto.engine.v1.ListIndexPlansRequest;
import dev.protomolt.proto.engine.v1.ListIndexPlansResponse;
import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The template's TLS listener deployed on a real local cloud: a gRPC call over a real TLS socket
 * reaches the task through the front when the client trusts the local cloud's CA, and is refused
 * in plaintext or with another CA, before anything reaches the task.
 */
class TlsFrontDeployTest {

  /** A gateway-shaped stack: task, service, target group, internal NLB, TLS listener on 443. */
  static final String TEMPLATE =
      """
      {"Resources": {
        "Task": {"Type": "AWS::ECS::TaskDefinition", "Properties": {"Family": "lb-gateway",
          "ContainerDefinitions": [{"Name": "Gateway",
            "PortMappings": [{"ContainerPort": 18100}]}]}},
        "Cluster": {"Type": "AWS::ECS::Cluster", "Properties": {}},
        "Targets": {"Type": "AWS::ElasticLoadBalancingV2::TargetGroup",
          "Properties": {"Port": 18100, "Protocol": "TCP", "TargetType": "ip"}},
        "Service": {"Type": "AWS::ECS::Service", "Properties": {
          "Cluster": {"Ref": "Cluster"}, "TaskDefinition": {"Ref": "Task"},
          "LoadBalancers": [{"ContainerName": "Gateway", "ContainerPort": 18100,
            "TargetGroupArn": {"Ref": "Targets"}}]}},
        "LoadBalancer": {"Type": "AWS::ElasticLoadBalancingV2::LoadBalancer",
          "Properties": {"Scheme": "internal", "Type": "network"}},
        "Tls": {"Type": "AWS::ElasticLoadBalancingV2::Listener", "Properties": {
          "LoadBalancerArn": {"Ref": "LoadBalancer"}, "Port": 443, "Protocol": "TLS",
          "AlpnPolicy": ["HTTP2Only"],
          "Certificates": [{"CertificateArn": "arn:aws:acm:us-east-1:000000000000:certificate/x"}],
          "DefaultActions": [{"Type": "forward", "TargetGroupArn": {"Ref": "Targets"}}]}}
      }}
      """;

  @TempDir static Path data;
  private static LocalCloud cloud;
  private static final AtomicInteger served = new AtomicInteger();

  @BeforeAll
  static void start() {
    cloud = LocalCloud.start(LocalCloudSettings.ephemeral(data.resolve("cloud")), null);
  }

  @AfterAll
  static void stop() {
    if (cloud != null) {
      cloud.close();
    }
  }

  /** Runs the "Gateway" container as a real gRPC server on a free port (not the task's 18100). */
  static final class GrpcTask implements ContainerRuntime {
    private volatile Server server;

    @Override
    public boolean runs(String family, String containerName) {
      return "Gateway".equals(containerName);
    }

    @Override
    public AutoCloseable start(DeployedContainer container) {
      try {
        server =
            Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
                .addService(
                    new IndexPlanServiceGrpc.IndexPlanServiceImplBase() {
                      @Override
                      public void listIndexPlans(
                          ListIndexPlansRequest request,
                          StreamObserver<ListIndexPlansResponse> reply) {
                        served.incrementAndGet();
                        reply.onNext(ListIndexPlansResponse.getDefaultInstance());
                        reply.onCompleted();
                      }
                    })
                .build()
                .start();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return () -> server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }

    @Override
    public int hostPort(DeployedContainer container, int containerPort) {
      return server.getPort();
    }
  }

  private static final FunctionRuntime NO_FUNCTIONS =
      new FunctionRuntime() {
        @Override
        public java.util.Optional<String> handlerOf(
            String handler, Map<String, String> environment) {
          return java.util.Optional.empty();
        }

        @Override
        public dev.protomolt.localstack.lambda.LambdaFunction start(
            dev.protomolt.localstack.template.DeployedFunction function) {
          throw new UnsupportedOperationException("the stack has no functions");
        }
      };

  private static ListIndexPlansResponse call(int port, ChannelCredentials credentials)
      throws InterruptedException {
    ManagedChannel channel =
        Grpc.newChannelBuilderForAddress("127.0.0.1", port, credentials).build();
    try {
      return IndexPlanServiceGrpc.newBlockingStub(channel)
          .withDeadlineAfter(10, TimeUnit.SECONDS)
          .listIndexPlans(ListIndexPlansRequest.getDefaultInstance());
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void theListenerEndsTlsWithTheLocalCaAndRefusesEverythingElse() throws Exception {
    GrpcTask task = new GrpcTask();
    TemplatePlan plan =
        TemplateDeployer.plan(
            CloudFormationTemplate.parse(TEMPLATE), "lb", cloud, NO_FUNCTIONS, task);
    assertThat(plan.listeners())
        .singleElement()
        .satisfies(
            l -> {
              assertThat(l.port()).isEqualTo(443);
              assertThat(l.taskLogicalId()).isEqualTo("Task");
              assertThat(l.containerPort()).isEqualTo(18100);
            });
    try (DeployedStack stack = TemplateDeployer.deploy(plan, cloud, NO_FUNCTIONS, task)) {
      DeployedStack.TlsListener front = stack.tlsListener().orElseThrow();
      assertThat(front.targetPort()).isEqualTo(task.server.getPort());
      assertThat(front.caFile()).isEqualTo(cloud.certificates().caFile()).isRegularFile();
      assertThat(Files.readString(front.caFile())).startsWith("-----BEGIN CERTIFICATE-----");

      // Trusting the local CA (as PROTOMOLT_GATEWAY_CA says), the call reaches the task over TLS.
      served.set(0);
      ChannelCredentials trusted =
          GatewayTransport.forGateway(
              "127.0.0.1", Map.of(GatewayTransport.CA_VARIABLE, front.caFile().toString()));
      assertThat(call(front.port(), trusted))
          .isEqualTo(ListIndexPlansResponse.getDefaultInstance());
      assertThat(served).hasValue(1);

      // Plaintext to the TLS port: the front answers HTTP/2 with a TLS alert, which the client
      // reads as a broken connection (INTERNAL or UNAVAILABLE); nothing reaches the task.
      assertThatThrownBy(() -> call(front.port(), InsecureChannelCredentials.create()))
          .isInstanceOfSatisfying(
              StatusRuntimeException.class,
              e ->
                  assertThat(e.getStatus().getCode())
                      .isIn(Status.Code.INTERNAL, Status.Code.UNAVAILABLE));
      // Another CA (another data folder's): the client refuses the front's certificate.
      Path otherCa = LocalCertificates.ensure(data.resolve("other-tls")).caFile();
      assertThatThrownBy(
              () ->
                  call(
                      front.port(),
                      GatewayTransport.forGateway("127.0.0.1", otherCa, "--gateway-ca")))
          .isInstanceOfSatisfying(
              StatusRuntimeException.class,
              e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
      assertThat(served).as("only the trusted call reached the task").hasValue(1);
    }
  }

  @Test
  void theCertificatesSurviveARestartOfTheCloud() {
    Path dir = data.resolve("kept-tls");
    LocalCertificates first = LocalCertificates.ensure(dir);
    LocalCertificates again = LocalCertificates.ensure(dir);
    assertThat(again.caFile()).isEqualTo(first.caFile());
    assertThat(again.caFile()).hasSameTextualContentAs(first.caFile());
    assertThat(LocalCertificates.caFile(dir)).isEqualTo(first.caFile());
  }

  @Test
  void aMissingCaFileIsRefusedNamingTheSetting() {
    assertThatThrownBy(
            () ->
                GatewayTransport.forGateway(
                    "127.0.0.1",
                    Map.of(GatewayTransport.CA_VARIABLE, data.resolve("absent.pem").toString())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("PROTOMOLT_GATEWAY_CA")
        .hasMessageContaining("absent.pem");
  }

  @Test
  void aPlaintextListenerIsRefusedBeforeAnythingStarts() {
    String plaintext = TEMPLATE.replace("\"Protocol\": \"TLS\"", "\"Protocol\": \"TCP\"");
    assertThat(plaintext).isNotEqualTo(TEMPLATE);
    assertThatThrownBy(
            () ->
                TemplateDeployer.plan(
                    CloudFormationTemplate.parse(plaintext),
                    "lb",
                    cloud,
                    NO_FUNCTIONS,
                    new GrpcTask()))
        .isInstanceOf(InvalidTemplateException.class)
        .hasMessageContaining("Tls")
        .hasMessageContaining("must be TLS");
  }
}
