package dev.protomolt.cdk.constructs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.cdk.TestEnvironments;
import dev.protomolt.cdk.config.DeployArtifacts;
import dev.protomolt.names.PlatformMetric;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.logs.RetentionDays;

class ModuleGatewayTest {

  private static final String CERT =
      "arn:aws:acm:eu-west-1:123456789012:certificate/00000000-0000-0000-0000-000000000009";
  private static final DeployArtifacts.EcrImage IMAGE =
      new DeployArtifacts.EcrImage("123456789012", "eu-west-1", "protomolt/gateway", "1.0.0");
  private static Template template;
  private static Network network;

  @BeforeAll
  static void synth() {
    Stack stack = TestEnvironments.emptyStack();
    network =
        new Network(
            stack,
            "Network",
            new Network.Props("10.1.0.0/16", 1, List.of("eu-west-1a", "eu-west-1b")));
    new ModuleGateway(stack, "Gateway", props(CERT, 1, 3));
    template = Template.fromStack(stack);
  }

  private static ModuleGateway.Props props(String cert, int min, int max) {
    return new ModuleGateway.Props(
        "protomolt-test",
        "test",
        network.vpc(),
        network.appSubnets(),
        network.publicSubnets(),
        IMAGE,
        cert,
        true,
        List.of("203.0.113.0/24"),
        512,
        1024,
        min,
        max,
        100,
        RetentionDays.ONE_WEEK,
        Map.of());
  }

  @Test
  void grpcOverTlsOnTheNlbWithTheConfiguredCertificate() {
    template.hasResourceProperties(
        "AWS::ElasticLoadBalancingV2::LoadBalancer",
        Match.objectLike(Map.of("Type", "network", "Scheme", "internet-facing")));
    template.hasResourceProperties(
        "AWS::ElasticLoadBalancingV2::Listener",
        Match.objectLike(
            Map.of(
                "Port",
                443,
                "Protocol",
                "TLS",
                "AlpnPolicy",
                List.of("HTTP2Only"),
                "Certificates",
                List.of(Map.of("CertificateArn", CERT)))));
    template.hasResourceProperties(
        "AWS::ElasticLoadBalancingV2::TargetGroup",
        Match.objectLike(
            Map.of("Port", ModuleGateway.CONTAINER_PORT, "Protocol", "TCP", "TargetType", "ip")));
  }

  @Test
  void anInternetFacingListenerAdmitsOnlyTheConfiguredRanges() {
    template.hasResourceProperties(
        "AWS::EC2::SecurityGroup",
        Match.objectLike(
            Map.of(
                "GroupDescription",
                "Gateway NLB: gRPC over TLS from module clients",
                "SecurityGroupIngress",
                List.of(
                    Match.objectLike(
                        Map.of("CidrIp", "203.0.113.0/24", "FromPort", 443, "ToPort", 443))))));
    assertThatThrownBy(
            () ->
                new ModuleGateway.Props(
                    "protomolt-test",
                    "test",
                    network.vpc(),
                    network.appSubnets(),
                    network.publicSubnets(),
                    IMAGE,
                    CERT,
                    true,
                    List.of(),
                    512,
                    1024,
                    1,
                    1,
                    100,
                    RetentionDays.ONE_WEEK,
                    Map.of()))
        .hasMessageContaining("gateway.allowedCidrs: an internet-facing gateway must list");
  }

  @Test
  void fargateServiceRunsThePinnedImageInPrivateSubnets() {
    template.hasResourceProperties(
        "AWS::ECS::Service",
        Match.objectLike(
            Map.of(
                "LaunchType",
                "FARGATE",
                "DesiredCount",
                1,
                "NetworkConfiguration",
                Map.of(
                    "AwsvpcConfiguration",
                    Match.objectLike(Map.of("AssignPublicIp", "DISABLED"))))));
    template.hasResourceProperties(
        "AWS::ECS::TaskDefinition",
        Match.objectLike(
            Map.of(
                "Cpu",
                "512",
                "Memory",
                "1024",
                "ContainerDefinitions",
                List.of(
                    Match.objectLike(
                        Map.of(
                            "Image",
                            Match.objectLike(
                                Map.of(
                                    "Fn::Join",
                                    Match.arrayWith(
                                        List.of(
                                            Match.arrayWith(
                                                List.of(
                                                    Match.stringLikeRegexp(
                                                        ".*protomolt/gateway:1.0.0")))))))))))));
  }

  @Test
  void tasksRunOnX8664LinuxTheArchitectureTheImageAssetIsBuiltFor() {
    template.hasResourceProperties(
        "AWS::ECS::TaskDefinition",
        Match.objectLike(
            Map.of(
                "RuntimePlatform",
                Map.of("CpuArchitecture", "X86_64", "OperatingSystemFamily", "LINUX"))));
  }

  @Test
  void scalesOnBacklogPerTaskBetweenTheConfiguredBounds() {
    template.hasResourceProperties(
        "AWS::ApplicationAutoScaling::ScalableTarget",
        Match.objectLike(Map.of("MinCapacity", 1, "MaxCapacity", 3)));
    // queued / tasks from one metric: Sum over SampleCount, one sample per task per minute.
    template.hasResourceProperties(
        "AWS::CloudWatch::Alarm",
        Match.objectLike(
            Map.of(
                "Metrics",
                Match.arrayWith(
                    List.of(
                        Match.objectLike(
                            Map.of(
                                "Expression",
                                "IF(queued > 0 AND tasks <= 1, 50.0, queued / tasks)")),
                        taskBacklog("queued", "Sum"),
                        taskBacklog("tasks", "SampleCount"))))));
    // Out by one, out by three, in by one.
    template.resourceCountIs("AWS::ApplicationAutoScaling::ScalingPolicy", 2);
    assertThat(template.findResources("AWS::CloudWatch::Alarm").toString())
        .as("a service that keeps a task never needs waking")
        .doesNotContain(PlatformMetric.MODULE_DISPATCHES.metricName());
  }

  @Test
  void aServiceThatMayScaleToZeroWakesOnDispatches() {
    Stack stack = TestEnvironments.emptyStack();
    Network net =
        new Network(
            stack,
            "Network",
            new Network.Props("10.1.0.0/16", 1, List.of("eu-west-1a", "eu-west-1b")));
    ModuleGateway.Props zero =
        new ModuleGateway.Props(
            "protomolt-test",
            "test",
            net.vpc(),
            net.appSubnets(),
            net.publicSubnets(),
            IMAGE,
            CERT,
            false,
            List.of(),
            512,
            1024,
            0,
            2,
            100,
            RetentionDays.ONE_WEEK,
            Map.of());
    new ModuleGateway(stack, "Gateway", zero);
    Template t = Template.fromStack(stack);

    t.hasResourceProperties(
        "AWS::ApplicationAutoScaling::ScalableTarget",
        Match.objectLike(Map.of("MinCapacity", 0, "MaxCapacity", 2)));
    t.hasResourceProperties(
        "AWS::CloudWatch::Alarm",
        Match.objectLike(
            Map.of(
                "ComparisonOperator",
                "GreaterThanOrEqualToThreshold",
                "Threshold",
                0.5,
                "Metrics",
                Match.arrayWith(
                    List.of(
                        Match.objectLike(
                            Map.of(
                                "Expression",
                                "IF(FILL(tasks, 0) == 0 AND FILL(dispatched, 0) > 0, 1, 0)")),
                        Match.objectLike(
                            Map.of(
                                "Id",
                                "dispatched",
                                "MetricStat",
                                Match.objectLike(
                                    Map.of(
                                        "Metric",
                                        Match.objectLike(
                                            Map.of(
                                                "MetricName",
                                                PlatformMetric.MODULE_DISPATCHES.metricName())),
                                        "Stat",
                                        "Sum")))))))));
    t.resourceCountIs("AWS::ApplicationAutoScaling::ScalingPolicy", 3);
  }

  private static Object taskBacklog(String id, String statistic) {
    return Match.objectLike(
        Map.of(
            "Id",
            id,
            "MetricStat",
            Match.objectLike(
                Map.of(
                    "Metric",
                    Map.of(
                        "Namespace",
                        Alerting.NAMESPACE,
                        "MetricName",
                        PlatformMetric.GATEWAY_TASK_BACKLOG.metricName(),
                        "Dimensions",
                        List.of(Map.of("Name", "Environment", "Value", "test"))),
                    "Stat",
                    statistic))));
  }

  @Test
  void propsRejectAForeignCertificateAndInvertedBounds() {
    assertThatThrownBy(() -> props("not-an-arn", 1, 2))
        .hasMessageContaining("gateway.certificateArn");
    assertThatThrownBy(() -> props(CERT, 3, 2)).hasMessageContaining("minTasks <= maxTasks");
    assertThatThrownBy(() -> props(CERT, -1, 2)).hasMessageContaining("0 <= minTasks");
    assertThatThrownBy(() -> props(CERT, 0, 0)).hasMessageContaining("maxTasks >= 1");
  }
}
