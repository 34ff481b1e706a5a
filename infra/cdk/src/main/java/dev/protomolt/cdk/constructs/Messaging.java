package dev.protomolt.cdk.constructs;

import dev.protomolt.names.PlatformTopic;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import software.amazon.awscdk.Fn;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.ec2.ISecurityGroup;
import software.amazon.awscdk.services.ec2.IVpc;
import software.amazon.awscdk.services.ec2.Port;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.ec2.SubnetSelection;
import software.amazon.awscdk.services.iam.IGrantable;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.msk.CfnServerlessCluster;
import software.constructs.Construct;

/**
 * MSK Serverless with IAM authentication, and the topics the platform needs. The cluster is a
 * CloudFormation resource; the topics are created by the migrate function through the
 * {@link Provisioning} custom resource (see docs/decisions/0651), from {@link #topics()}.
 *
 * <p>IAM grants are per topic and per consumer group ARN, derived from the cluster ARN
 * ({@code arn:aws:kafka:<region>:<account>:cluster/<name>/<uuid>}), never the whole cluster.
 */
public final class Messaging extends Construct {

  /** Platform topics, named as the seeds and the local cloud name them. */
  public static final List<String> PLATFORM_TOPICS =
      Stream.of(PlatformTopic.values()).map(PlatformTopic::topicName).toList();

  /** Module work topics are {@code pipestream.module.<service>}. */
  public static final String MODULE_TOPIC_PREFIX = PlatformTopic.MODULE_TOPIC_PREFIX;

  /** Dead-letter topics are {@code pipestream.<cluster>.<graph>.<node>.dlq}, made at activation. */
  public static final String DLQ_TOPIC_PATTERN = PlatformTopic.DLQ_TOPIC_PATTERN;

  /** MSK Serverless serves IAM-authenticated clients on this port. */
  public static final int IAM_PORT = 9098;

  /** One topic the migrate function ensures exists. */
  public record TopicSpec(String name, int partitions) {}

  /** Validated settings. */
  public record Props(
      String clusterName,
      IVpc vpc,
      SubnetSelection subnets,
      int topicPartitions,
      List<String> moduleServices) {
    public Props {
      if (clusterName == null || !clusterName.matches("[a-zA-Z0-9][a-zA-Z0-9-]{0,63}")) {
        throw new IllegalArgumentException(
            "messaging cluster name: letters, digits, dashes, at"
                + " most 64 (got "
                + clusterName
                + ")");
      }
      if (vpc == null || subnets == null) {
        throw new IllegalArgumentException("messaging: vpc and subnets are required");
      }
      if (topicPartitions < 1 || topicPartitions > 120) {
        throw new IllegalArgumentException(
            "messaging.topicPartitions: 1 to 120 (got " + topicPartitions + ")");
      }
      if (moduleServices == null
          || moduleServices.stream().distinct().count() != moduleServices.size()) {
        throw new IllegalArgumentException("messaging.moduleServices: required, without repeats");
      }
      moduleServices = List.copyOf(moduleServices);
    }
  }

  private final Props props;
  private final CfnServerlessCluster cluster;
  private final SecurityGroup securityGroup;

  public Messaging(Construct scope, String id, Props props) {
    super(scope, id);
    this.props = props;
    this.securityGroup =
        SecurityGroup.Builder.create(this, "SecurityGroup")
            .vpc(props.vpc())
            .description("MSK Serverless: IAM-authenticated Kafka clients only")
            .allowAllOutbound(false)
            .build();
    // Lambda's MSK pollers attach to the cluster's own security group and must reach the brokers.
    securityGroup.addIngressRule(securityGroup, Port.tcp(IAM_PORT), "event-source mapping pollers");
    securityGroup.addEgressRule(securityGroup, Port.tcp(IAM_PORT), "event-source mapping pollers");
    this.cluster =
        CfnServerlessCluster.Builder.create(this, "Cluster")
            .clusterName(props.clusterName())
            .clientAuthentication(
                CfnServerlessCluster.ClientAuthenticationProperty.builder()
                    .sasl(
                        CfnServerlessCluster.SaslProperty.builder()
                            .iam(CfnServerlessCluster.IamProperty.builder().enabled(true).build())
                            .build())
                    .build())
            .vpcConfigs(
                List.of(
                    CfnServerlessCluster.VpcConfigProperty.builder()
                        .subnetIds(props.vpc().selectSubnets(props.subnets()).getSubnetIds())
                        .securityGroups(List.of(securityGroup.getSecurityGroupId()))
                        .build()))
            .build();
  }

  /** Every topic the environment starts with: platform topics, then one per module service. */
  public List<TopicSpec> topics() {
    List<TopicSpec> out = new ArrayList<>();
    PLATFORM_TOPICS.forEach(t -> out.add(new TopicSpec(t, props.topicPartitions())));
    props
        .moduleServices()
        .forEach(s -> out.add(new TopicSpec(moduleTopic(s), props.topicPartitions())));
    return List.copyOf(out);
  }

  public List<String> moduleTopics() {
    return props.moduleServices().stream().map(Messaging::moduleTopic).toList();
  }

  public static String moduleTopic(String service) {
    return MODULE_TOPIC_PREFIX + service;
  }

  public String clusterArn() {
    return cluster.getAttrArn();
  }

  public CfnServerlessCluster cluster() {
    return cluster;
  }

  public ISecurityGroup securityGroup() {
    return securityGroup;
  }

  /** Opens the IAM port to a client security group. */
  public void allowFrom(ISecurityGroup client, String description) {
    securityGroup.addIngressRule(client, Port.tcp(IAM_PORT), description);
  }

  /** ARN of a topic (or an IAM pattern of topics) in this cluster. */
  public String topicArn(String topicOrPattern) {
    return kafkaArn("topic", topicOrPattern);
  }

  /** ARN of a consumer group in this cluster. */
  public String groupArn(String group) {
    return kafkaArn("group", group);
  }

  private String kafkaArn(String type, String name) {
    Stack stack = Stack.of(this);
    // cluster/<name>/<uuid> → the name and uuid every topic and group ARN of the cluster shares.
    List<String> parts = Fn.split("/", clusterArn());
    return "arn:"
        + stack.getPartition()
        + ":kafka:"
        + stack.getRegion()
        + ":"
        + stack.getAccount()
        + ":"
        + type
        + "/"
        + Fn.select(1, parts)
        + "/"
        + Fn.select(2, parts)
        + "/"
        + name;
  }

  /** Connect, and find the bootstrap brokers (the cluster ARN is what functions are given). */
  public void grantConnect(IGrantable grantee) {
    add(
        grantee,
        List.of("kafka-cluster:Connect", "kafka:GetBootstrapBrokers", "kafka:DescribeClusterV2"),
        List.of(clusterArn()));
  }

  /** Produce to the named topics (names or IAM patterns), idempotently. */
  public void grantProduce(IGrantable grantee, String... topics) {
    grantConnect(grantee);
    add(grantee, List.of("kafka-cluster:WriteDataIdempotently"), List.of(clusterArn()));
    add(
        grantee,
        List.of("kafka-cluster:DescribeTopic", "kafka-cluster:WriteData"),
        Stream.of(topics).map(this::topicArn).toList());
  }

  /** See the named topics (names or IAM patterns) when listing the cluster's topics; no data. */
  public void grantDescribeTopics(IGrantable grantee, String... topics) {
    grantConnect(grantee);
    add(
        grantee,
        List.of("kafka-cluster:DescribeTopic"),
        Stream.of(topics).map(this::topicArn).toList());
  }

  /** Consume the named topics in one consumer group. */
  public void grantConsume(IGrantable grantee, String group, String... topics) {
    grantRead(grantee, topics);
    add(
        grantee,
        List.of("kafka-cluster:DescribeGroup", "kafka-cluster:AlterGroup"),
        List.of(groupArn(group)));
  }

  /**
   * Read the named topics without a consumer group: a reader that assigns itself every partition
   * and commits nothing (the gateway following graph-updates) needs no group permission.
   */
  public void grantRead(IGrantable grantee, String... topics) {
    grantConnect(grantee);
    add(
        grantee,
        List.of("kafka-cluster:DescribeClusterDynamicConfiguration"),
        List.of(clusterArn()));
    add(
        grantee,
        List.of("kafka-cluster:DescribeTopic", "kafka-cluster:ReadData"),
        Stream.of(topics).map(this::topicArn).toList());
  }

  /** Create and configure the named topics (names or IAM patterns). */
  public void grantTopicAdmin(IGrantable grantee, String... topics) {
    grantConnect(grantee);
    add(
        grantee,
        List.of(
            "kafka-cluster:CreateTopic",
            "kafka-cluster:DescribeTopic",
            "kafka-cluster:AlterTopic",
            "kafka-cluster:DescribeTopicDynamicConfiguration",
            "kafka-cluster:AlterTopicDynamicConfiguration"),
        Stream.of(topics).map(this::topicArn).toList());
  }

  private static void add(IGrantable grantee, List<String> actions, List<String> resources) {
    grantee
        .getGrantPrincipal()
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create().actions(actions).resources(resources).build());
  }
}
