package dev.protomolt.cdk.constructs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.cdk.PolicyDocuments;
import dev.protomolt.cdk.TestEnvironments;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;

class MessagingTest {

  private static Template template;
  private static Messaging messaging;
  private static Network network;

  @BeforeAll
  static void synth() {
    Stack stack = TestEnvironments.emptyStack();
    network =
        new Network(
            stack,
            "Network",
            new Network.Props("10.1.0.0/16", 1, List.of("eu-west-1a", "eu-west-1b")));
    messaging =
        new Messaging(
            stack,
            "Messaging",
            new Messaging.Props(
                "protomolt-test",
                network.vpc(),
                network.appSubnets(),
                6,
                List.of("parser", "chunker")));
    Role consumer =
        Role.Builder.create(stack, "Consumer")
            .assumedBy(new ServicePrincipal("lambda.amazonaws.com"))
            .build();
    messaging.grantConsume(consumer, "protomolt-test-purge", "storage-purge");
    template = Template.fromStack(stack);
  }

  @Test
  void serverlessClusterAcceptsOnlyIamClients() {
    template.hasResourceProperties(
        "AWS::MSK::ServerlessCluster",
        Match.objectLike(
            Map.of(
                "ClusterName",
                "protomolt-test",
                "ClientAuthentication",
                Map.of("Sasl", Map.of("Iam", Map.of("Enabled", true))))));
  }

  @Test
  void topicsAreThePlatformTopicsPlusOnePerModule() {
    assertThat(messaging.topics())
        .extracting(Messaging.TopicSpec::name)
        .containsExactly(
            "graph-updates",
            "pipeline-events",
            "indexing-receipts",
            "storage-purge",
            "reclaim-requests",
            "document-deleted",
            "account-events",
            "diagnostics-canary",
            "pipestream.module.parser",
            "pipestream.module.chunker");
    assertThat(messaging.topics()).allMatch(t -> t.partitions() == 6);
  }

  @Test
  void consumersGetTheirTopicAndGroupOnly() {
    String role =
        template.findResources("AWS::IAM::Role").keySet().stream()
            .filter(id -> id.startsWith("Consumer"))
            .findFirst()
            .orElseThrow();
    var statements = PolicyDocuments.forRole(template, role);
    assertThat(statements)
        .anySatisfy(
            s -> {
              assertThat(s.actions())
                  .containsExactly("kafka-cluster:DescribeTopic", "kafka-cluster:ReadData");
              assertThat(s.resources())
                  .singleElement()
                  .asString()
                  .startsWith("arn:${AWS::Partition}:kafka:eu-west-1:123456789012:topic/")
                  .endsWith("/storage-purge");
            });
    assertThat(statements)
        .anySatisfy(
            s -> {
              assertThat(s.actions())
                  .containsExactly("kafka-cluster:DescribeGroup", "kafka-cluster:AlterGroup");
              assertThat(s.resources())
                  .singleElement()
                  .asString()
                  .contains(":group/")
                  .endsWith("/protomolt-test-purge");
            });
    assertThat(statements.stream().flatMap(s -> s.actions().stream()))
        .noneMatch(
            a -> a.equals("kafka-cluster:WriteData") || a.equals("kafka-cluster:CreateTopic"));
  }

  @Test
  void pollersMayReachTheBrokersInsideTheClustersSecurityGroup() {
    template.hasResourceProperties(
        "AWS::EC2::SecurityGroupIngress",
        Match.objectLike(Map.of("FromPort", Messaging.IAM_PORT, "ToPort", Messaging.IAM_PORT)));
  }

  @Test
  void propsRejectTooManyPartitionsAndRepeatedModules() {
    assertThatThrownBy(() -> new Messaging.Props("c", null, null, 1, List.of()))
        .hasMessageContaining("vpc and subnets");
    assertThatThrownBy(
            () -> new Messaging.Props("c", network.vpc(), network.appSubnets(), 121, List.of()))
        .hasMessageContaining("messaging.topicPartitions")
        .hasMessageContaining("121");
    assertThatThrownBy(
            () ->
                new Messaging.Props(
                    "c", network.vpc(), network.appSubnets(), 3, List.of("parser", "parser")))
        .hasMessageContaining("messaging.moduleServices")
        .hasMessageContaining("repeats");
  }
}
