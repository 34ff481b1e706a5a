package dev.protomolt.localstack.template;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The one table of resource types the local cloud deploys, each with what it becomes locally and
 * why. A type not in this table fails the deployment, naming the resource, before anything starts:
 * silently skipping an unknown resource would test a system that differs from what {@code cdk
 * deploy} creates (decision 1501).
 */
public final class LocalResourceTypes {

  /** One row: what a type becomes locally, and why. */
  public record Mapping(String type, LocalRole role, String why) {}

  private static final Map<String, Mapping> TABLE = new TreeMap<>();

  static {
    // What runs.
    row(
        "AWS::Lambda::Function",
        LocalRole.FUNCTION,
        "in-process, handler and environment from the template");
    row("AWS::Lambda::Version", LocalRole.FUNCTION_VERSION, "its ARN invokes the function");
    row("AWS::Lambda::Alias", LocalRole.FUNCTION_ALIAS, "its ARN invokes the function");
    row("AWS::Lambda::EventSourceMapping", LocalRole.EVENT_SOURCE_MAPPING, "the local MSK poller");
    row("AWS::ECS::TaskDefinition", LocalRole.CONTAINER_TASK, "its container runs in-process");
    row("AWS::Scheduler::Schedule", LocalRole.SCHEDULE, "the local clock");
    row(
        "AWS::Events::Rule",
        LocalRole.EVENT_RULE,
        "schedules on the local clock; patterns recorded");
    row("AWS::StepFunctions::StateMachine", LocalRole.STATE_MACHINE, "the local runtime");
    // What stores.
    row("AWS::S3::Bucket", LocalRole.BUCKET, "the local S3");
    row("Custom::S3BucketNotifications", LocalRole.BUCKET_NOTIFICATIONS, "the local S3 notifier");
    row("AWS::DynamoDB::Table", LocalRole.TABLE, "the local DynamoDB");
    row("AWS::KMS::Key", LocalRole.KMS_KEY, "a key in the local KMS on the AWS API port");
    row("Custom::ProtoMoltKafkaTopics", LocalRole.KAFKA_TOPICS, "topics on the local broker");
    row("Custom::ProtoMoltSchemaMigration", LocalRole.SCHEMA_MIGRATION, "its onEvent function");
    // Managed services the local cloud answers for with its own.
    row("AWS::RDS::DBCluster", LocalRole.LOCAL_POSTGRES, "the embedded PostgreSQL");
    row("AWS::RDS::DBInstance", LocalRole.LOCAL_POSTGRES, "the embedded PostgreSQL");
    row("AWS::RDS::DBProxy", LocalRole.LOCAL_POSTGRES, "the embedded PostgreSQL");
    row("AWS::RDS::DBProxyTargetGroup", LocalRole.LOCAL_POSTGRES, "the embedded PostgreSQL");
    row("AWS::RDS::DBSubnetGroup", LocalRole.NOTHING, "no network locally");
    row("AWS::MSK::ServerlessCluster", LocalRole.LOCAL_KAFKA, "the in-process KRaft broker");
    row("AWS::MSK::Cluster", LocalRole.LOCAL_KAFKA, "the in-process KRaft broker");
    row("AWS::SecretsManager::Secret", LocalRole.NOTHING, "the local database needs no secret");
    row("AWS::SecretsManager::SecretTargetAttachment", LocalRole.NOTHING, "as the secret");
    // Permissions: recorded for enforcement, nothing to start.
    row("AWS::IAM::Role", LocalRole.IAM, "recorded for the policy checks");
    row("AWS::IAM::Policy", LocalRole.IAM, "recorded for the policy checks");
    row("AWS::IAM::ManagedPolicy", LocalRole.IAM, "recorded for the policy checks");
    row("AWS::Lambda::Permission", LocalRole.IAM, "recorded for the policy checks");
    row("AWS::S3::BucketPolicy", LocalRole.IAM, "recorded for the policy checks");
    row("AWS::SNS::TopicPolicy", LocalRole.IAM, "recorded for the policy checks");
    // Networking: one loopback interface locally.
    for (String t :
        new String[] {
          "AWS::EC2::VPC",
          "AWS::EC2::Subnet",
          "AWS::EC2::RouteTable",
          "AWS::EC2::Route",
          "AWS::EC2::SubnetRouteTableAssociation",
          "AWS::EC2::InternetGateway",
          "AWS::EC2::VPCGatewayAttachment",
          "AWS::EC2::NatGateway",
          "AWS::EC2::EIP",
          "AWS::EC2::SecurityGroup",
          "AWS::EC2::SecurityGroupIngress",
          "AWS::EC2::SecurityGroupEgress",
          "AWS::EC2::VPCEndpoint",
          "AWS::ElasticLoadBalancingV2::LoadBalancer",
          "AWS::ElasticLoadBalancingV2::TargetGroup"
        }) {
      row(t, LocalRole.NOTHING, "no network locally: every service is on loopback");
    }
    // TLS ends where it ends in AWS: at the load balancer's listener, not in the task.
    row(
        "AWS::ElasticLoadBalancingV2::Listener",
        LocalRole.TLS_LISTENER,
        "a loopback TLS front with the local cloud's certificate, forwarding to the task");
    // The ECS service runs its task definition; scaling and placement are AWS's concern.
    row("AWS::ECS::Cluster", LocalRole.NOTHING, "the task runs in this JVM");
    row("AWS::ECS::Service", LocalRole.NOTHING, "its task definition runs once in this JVM");
    row("AWS::ApplicationAutoScaling::ScalableTarget", LocalRole.NOTHING, "one task locally");
    row("AWS::ApplicationAutoScaling::ScalingPolicy", LocalRole.NOTHING, "one task locally");
    // Observability and notifications: logs go to the console, alarms page nobody.
    row("AWS::Logs::LogGroup", LocalRole.NOTHING, "logs go to the console");
    row("AWS::CloudWatch::Alarm", LocalRole.NOTHING, "no one to page locally");
    row("AWS::SNS::Topic", LocalRole.NOTHING, "alarm notifications only");
    row("AWS::SNS::Subscription", LocalRole.NOTHING, "alarm notifications only");
    row("AWS::ECR::Repository", LocalRole.NOTHING, "images are not built locally");
    row("AWS::CDK::Metadata", LocalRole.NOTHING, "CDK's own bookkeeping");
    // The console (decision 1770): the local cloud's HTTP front serves the API function and the
    // console jar's assets on a loopback port, so the HTTP API and CloudFront need nothing more.
    for (String type :
        new String[] {
          "AWS::ApiGatewayV2::Api",
          "AWS::ApiGatewayV2::Stage",
          "AWS::ApiGatewayV2::Integration",
          "AWS::ApiGatewayV2::Route"
        }) {
      row(type, LocalRole.NOTHING, "the local HTTP front (HttpApiFront) serves the console API");
    }
    row(
        "AWS::CloudFront::Distribution",
        LocalRole.NOTHING,
        "the local HTTP front serves the console's assets");
    row(
        "AWS::CloudFront::OriginAccessControl",
        LocalRole.NOTHING,
        "the local HTTP front serves the console's assets");
    // The console's operator sign-in (decisions 1752, 1753): locally the HTTP front's one-time
    // token signs the operator in, so the user pool, its groups and the identity pool have
    // nothing to do.
    for (String type :
        new String[] {
          "AWS::Cognito::UserPool",
          "AWS::Cognito::UserPoolGroup",
          "AWS::Cognito::UserPoolClient",
          "AWS::Cognito::IdentityPool",
          "AWS::Cognito::IdentityPoolRoleAttachment"
        }) {
      row(type, LocalRole.NOTHING, "the local HTTP front's one-time token signs the operator in");
    }
    // The stack uploads the console's built site to its bucket (decision 1772); locally the HTTP
    // front serves the same build from the console jar, so the upload and the AWS CLI layer its
    // provider function runs on have nothing to do (the provider is a custom resource's, so it
    // is not deployed as a function either).
    row(
        "Custom::CDKBucketDeployment",
        LocalRole.NOTHING,
        "the local HTTP front serves the console jar's assets, the same build");
    row(
        "AWS::Lambda::LayerVersion",
        LocalRole.NOTHING,
        "only the console upload's provider uses a layer, and it does not run locally");
  }

  private LocalResourceTypes() {}

  private static void row(String type, LocalRole role, String why) {
    TABLE.put(type, new Mapping(type, role, why));
  }

  /** The mapping of {@code type}, or empty when the local cloud cannot deploy it. */
  public static Optional<Mapping> of(String type) {
    return Optional.ofNullable(TABLE.get(type));
  }

  /** Every row, sorted by type. */
  public static Map<String, Mapping> all() {
    return java.util.Collections.unmodifiableMap(TABLE);
  }
}
