package dev.protomolt.cdk.constructs;

import dev.protomolt.cdk.config.DeployArtifacts;
import dev.protomolt.names.PlatformMetric;
import dev.protomolt.names.PlatformVariable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.applicationautoscaling.AdjustmentType;
import software.amazon.awscdk.services.applicationautoscaling.BasicStepScalingPolicyProps;
import software.amazon.awscdk.services.applicationautoscaling.EnableScalingProps;
import software.amazon.awscdk.services.applicationautoscaling.ScalingInterval;
import software.amazon.awscdk.services.cloudwatch.IMetric;
import software.amazon.awscdk.services.cloudwatch.MathExpression;
import software.amazon.awscdk.services.cloudwatch.Metric;
import software.amazon.awscdk.services.ec2.IVpc;
import software.amazon.awscdk.services.ec2.Peer;
import software.amazon.awscdk.services.ec2.Port;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.ec2.SubnetSelection;
import software.amazon.awscdk.services.ecr.Repository;
import software.amazon.awscdk.services.ecr.RepositoryAttributes;
import software.amazon.awscdk.services.ecr.assets.Platform;
import software.amazon.awscdk.services.ecs.AssetImageProps;
import software.amazon.awscdk.services.ecs.AwsLogDriverProps;
import software.amazon.awscdk.services.ecs.Cluster;
import software.amazon.awscdk.services.ecs.ContainerDefinitionOptions;
import software.amazon.awscdk.services.ecs.ContainerImage;
import software.amazon.awscdk.services.ecs.CpuArchitecture;
import software.amazon.awscdk.services.ecs.DeploymentCircuitBreaker;
import software.amazon.awscdk.services.ecs.FargateService;
import software.amazon.awscdk.services.ecs.FargateTaskDefinition;
import software.amazon.awscdk.services.ecs.LogDriver;
import software.amazon.awscdk.services.ecs.OperatingSystemFamily;
import software.amazon.awscdk.services.ecs.PortMapping;
import software.amazon.awscdk.services.ecs.Protocol;
import software.amazon.awscdk.services.ecs.RuntimePlatform;
import software.amazon.awscdk.services.ecs.ScalableTaskCount;
import software.amazon.awscdk.services.elasticloadbalancingv2.AlpnPolicy;
import software.amazon.awscdk.services.elasticloadbalancingv2.BaseNetworkListenerProps;
import software.amazon.awscdk.services.elasticloadbalancingv2.HealthCheck;
import software.amazon.awscdk.services.elasticloadbalancingv2.ListenerCertificate;
import software.amazon.awscdk.services.elasticloadbalancingv2.NetworkLoadBalancer;
import software.amazon.awscdk.services.elasticloadbalancingv2.NetworkTargetGroup;
import software.amazon.awscdk.services.elasticloadbalancingv2.SslPolicy;
import software.amazon.awscdk.services.elasticloadbalancingv2.TargetType;
import software.amazon.awscdk.services.iam.IRole;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.logs.RetentionDays;
import software.constructs.Construct;

/**
 * The module gateway: gRPC ({@code ModuleWorkService} and the services' gRPC doors) on ECS Fargate
 * behind a network load balancer that terminates TLS with the configured ACM certificate and
 * forwards HTTP/2 to the tasks ({@value #CONTAINER_PORT}, the same port as the local cloud).
 *
 * <p>Scaling follows the backlog per task: each gateway task publishes {@code GatewayTaskBacklog}
 * (the records it holds, queued or in flight) every minute as a CloudWatch embedded-metric-format
 * line on stdout, which the awslogs driver ships to CloudWatch Logs, where it becomes a metric in
 * namespace {@code ProtoMolt} with dimension {@code Environment}. No PutMetricData permission is
 * needed. With {@code minTasks} 0 the dispatch function's {@code ModuleDispatches} wakes a service
 * that has no task left to measure anything (decision 1654).
 */
public final class ModuleGateway extends Construct {

  public static final int CONTAINER_PORT = 18100;

  /**
   * The admin HTTP port ({@code /health}, and the diagnostics REST shell where switched on). Mapped
   * on the task but never behind the load balancer, and no security group rule admits it: an
   * operator reaches it from inside the task (ECS Exec) or through a port forward.
   */
  public static final int ADMIN_PORT = 18101;

  public static final int LISTENER_PORT = 443;

  /** Validated settings. */
  public record Props(
      String namePrefix,
      String environmentName,
      IVpc vpc,
      SubnetSelection taskSubnets,
      SubnetSelection loadBalancerSubnets,
      DeployArtifacts.GatewayImage image,
      String certificateArn,
      boolean internetFacing,
      List<String> allowedCidrs,
      int cpuUnits,
      int memoryMiB,
      int minTasks,
      int maxTasks,
      int scaleOutBacklog,
      RetentionDays logRetention,
      Map<String, String> environment) {
    public Props {
      if (namePrefix == null
          || environmentName == null
          || vpc == null
          || taskSubnets == null
          || loadBalancerSubnets == null
          || image == null
          || logRetention == null) {
        throw new IllegalArgumentException(
            "gateway: name, vpc, subnets, image and log retention are required");
      }
      if (certificateArn == null
          || !certificateArn.matches("arn:aws[a-z-]*:acm:[a-z0-9-]+:\\d{12}:certificate/.+")) {
        throw new IllegalArgumentException(
            "gateway.certificateArn: must be an ACM certificate ARN"
                + " (got "
                + certificateArn
                + ")");
      }
      if (minTasks < 0 || maxTasks < Math.max(1, minTasks)) {
        throw new IllegalArgumentException(
            "gateway: need 0 <= minTasks <= maxTasks and maxTasks >= 1 (got "
                + minTasks
                + ".."
                + maxTasks
                + ")");
      }
      if (scaleOutBacklog < 1) {
        throw new IllegalArgumentException(
            "gateway.scaleOutBacklog: must be positive (got " + scaleOutBacklog + ")");
      }
      allowedCidrs = allowedCidrs == null ? List.of() : List.copyOf(allowedCidrs);
      if (internetFacing && allowedCidrs.isEmpty()) {
        throw new IllegalArgumentException(
            "gateway.allowedCidrs: an internet-facing gateway must list the ranges it admits");
      }
      environment = environment == null ? Map.of() : Map.copyOf(environment);
    }
  }

  private final FargateService service;
  private final NetworkLoadBalancer loadBalancer;
  private final SecurityGroup securityGroup;

  public ModuleGateway(Construct scope, String id, Props props) {
    super(scope, id);
    Cluster cluster =
        Cluster.Builder.create(this, "Cluster")
            .clusterName(props.namePrefix() + "-gateway")
            .vpc(props.vpc())
            .build();
    FargateTaskDefinition task =
        FargateTaskDefinition.Builder.create(this, "Task")
            .cpu(props.cpuUnits())
            .memoryLimitMiB(props.memoryMiB())
            // Stated, not defaulted: the image asset is built for the same architecture (see
            // image()).
            .runtimePlatform(
                RuntimePlatform.builder()
                    .cpuArchitecture(CpuArchitecture.X86_64)
                    .operatingSystemFamily(OperatingSystemFamily.LINUX)
                    .build())
            .build();
    LogGroup logs =
        LogGroup.Builder.create(this, "Logs")
            .logGroupName("/ecs/" + props.namePrefix() + "-gateway")
            .retention(props.logRetention())
            .removalPolicy(RemovalPolicy.DESTROY)
            .build();
    Map<String, String> environment = new HashMap<>(props.environment());
    environment.put(PlatformVariable.GATEWAY_PORT.key(), Integer.toString(CONTAINER_PORT));
    environment.put(PlatformVariable.ADMIN_PORT.key(), Integer.toString(ADMIN_PORT));
    task.addContainer(
        "Gateway",
        ContainerDefinitionOptions.builder()
            .image(image(props.image()))
            .essential(true)
            .portMappings(
                List.of(
                    PortMapping.builder()
                        .containerPort(CONTAINER_PORT)
                        .protocol(Protocol.TCP)
                        .build(),
                    PortMapping.builder().containerPort(ADMIN_PORT).protocol(Protocol.TCP).build()))
            .logging(
                LogDriver.awsLogs(
                    AwsLogDriverProps.builder().logGroup(logs).streamPrefix("gateway").build()))
            .environment(environment)
            .build());

    SecurityGroup lbSecurityGroup =
        SecurityGroup.Builder.create(this, "LoadBalancerSecurityGroup")
            .vpc(props.vpc())
            .description("Gateway NLB: gRPC over TLS from module clients")
            .allowAllOutbound(false)
            .build();
    // Internal: the VPC only. Internet-facing: the configured ranges only, never 0.0.0.0/0 by
    // default; every caller must still authenticate (decision 1743).
    if (props.internetFacing()) {
      for (String cidr : props.allowedCidrs()) {
        lbSecurityGroup.addIngressRule(
            Peer.ipv4(cidr), Port.tcp(LISTENER_PORT), "gRPC over TLS from " + cidr);
      }
    } else {
      lbSecurityGroup.addIngressRule(
          Peer.ipv4(props.vpc().getVpcCidrBlock()), Port.tcp(LISTENER_PORT), "gRPC over TLS");
    }
    this.securityGroup =
        SecurityGroup.Builder.create(this, "TaskSecurityGroup")
            .vpc(props.vpc())
            .description("Gateway tasks: from the NLB; outbound to MSK, the proxy and AWS APIs")
            .allowAllOutbound(true)
            .build();
    securityGroup.addIngressRule(lbSecurityGroup, Port.tcp(CONTAINER_PORT), "NLB to gateway");
    lbSecurityGroup.addEgressRule(securityGroup, Port.tcp(CONTAINER_PORT), "NLB to gateway");

    this.service =
        FargateService.Builder.create(this, "Service")
            .serviceName(props.namePrefix() + "-gateway")
            .cluster(cluster)
            .taskDefinition(task)
            .desiredCount(props.minTasks())
            // Modules hold long-lived Work streams: start the new task before stopping the old one.
            .minHealthyPercent(100)
            .maxHealthyPercent(200)
            .vpcSubnets(props.taskSubnets())
            .securityGroups(List.of(securityGroup))
            .assignPublicIp(false)
            .circuitBreaker(DeploymentCircuitBreaker.builder().rollback(true).build())
            .build();

    this.loadBalancer =
        NetworkLoadBalancer.Builder.create(this, "LoadBalancer")
            .vpc(props.vpc())
            .internetFacing(props.internetFacing())
            .vpcSubnets(props.loadBalancerSubnets())
            .securityGroups(List.of(lbSecurityGroup))
            .build();
    NetworkTargetGroup targets =
        NetworkTargetGroup.Builder.create(this, "Targets")
            .vpc(props.vpc())
            .port(CONTAINER_PORT)
            .protocol(software.amazon.awscdk.services.elasticloadbalancingv2.Protocol.TCP)
            .targetType(TargetType.IP)
            .healthCheck(
                HealthCheck.builder()
                    .protocol(software.amazon.awscdk.services.elasticloadbalancingv2.Protocol.TCP)
                    .interval(Duration.seconds(10))
                    .build())
            .deregistrationDelay(Duration.seconds(30))
            .build();
    service.attachToNetworkTargetGroup(targets);
    loadBalancer.addListener(
        "Tls",
        BaseNetworkListenerProps.builder()
            .port(LISTENER_PORT)
            .protocol(software.amazon.awscdk.services.elasticloadbalancingv2.Protocol.TLS)
            .certificates(List.of(ListenerCertificate.fromArn(props.certificateArn())))
            .sslPolicy(SslPolicy.RECOMMENDED_TLS)
            .alpnPolicy(AlpnPolicy.HTTP2_ONLY)
            .defaultTargetGroups(List.of(targets))
            .build());

    ScalableTaskCount scaling =
        service.autoScaleTaskCount(
            EnableScalingProps.builder()
                .minCapacity(props.minTasks())
                .maxCapacity(props.maxTasks())
                .build());
    double step = props.scaleOutBacklog();
    // Backlog per running task (decision 1654): every task emits GatewayTaskBacklog once a
    // minute, so its Sum is the service's backlog and its SampleCount the tasks reporting. The
    // last task is never given back while it holds a record: the expression then sits between
    // the scale-in and scale-out bounds, where neither alarm fires.
    scaling.scaleOnMetric(
        "BacklogScaling",
        BasicStepScalingPolicyProps.builder()
            .metric(backlogPerTask(props.environmentName(), step / 2))
            .adjustmentType(AdjustmentType.CHANGE_IN_CAPACITY)
            .scalingSteps(
                List.of(
                    // Nearly drained: give one task back (the last one only when empty).
                    ScalingInterval.builder().upper(step / 10).change(-1).build(),
                    // A task's worth waiting per task: add one; four tasks' worth: add three.
                    ScalingInterval.builder().lower(step).change(1).build(),
                    ScalingInterval.builder().lower(step * 4).change(3).build()))
            .cooldown(Duration.minutes(2))
            .build());
    if (props.minTasks() == 0) {
      // At zero tasks nothing measures a backlog, so the dispatch function's count of produced
      // work units wakes the service: one task when dispatches arrived and no task reported.
      scaling.scaleOnMetric(
          "WakeFromZero",
          BasicStepScalingPolicyProps.builder()
              .metric(wakeFromZero(props.environmentName()))
              .adjustmentType(AdjustmentType.CHANGE_IN_CAPACITY)
              .scalingSteps(
                  List.of(
                      ScalingInterval.builder().upper(0.5).change(0).build(),
                      ScalingInterval.builder().lower(0.5).change(1).build()))
              .cooldown(Duration.minutes(2))
              .build());
    }
  }

  /**
   * Records queued or in flight per running gateway task, or {@code neutral} when one task is left
   * and still holds records (see the constructor).
   */
  public static MathExpression backlogPerTask(String environmentName, double neutral) {
    return MathExpression.Builder.create()
        .expression("IF(queued > 0 AND tasks <= 1, " + neutral + ", queued / tasks)")
        // Sorted: Map.of iterates in an order that changes between JVMs, and the template must not.
        .usingMetrics(
            new TreeMap<String, IMetric>(
                Map.of(
                    "queued", taskBacklog(environmentName, "Sum"),
                    "tasks", taskBacklog(environmentName, "SampleCount"))))
        .label("Backlog per gateway task")
        .period(Duration.minutes(1))
        .build();
  }

  /** 1 in a minute when work units were dispatched and no gateway task reported, else 0. */
  public static MathExpression wakeFromZero(String environmentName) {
    return MathExpression.Builder.create()
        .expression("IF(FILL(tasks, 0) == 0 AND FILL(dispatched, 0) > 0, 1, 0)")
        .usingMetrics(
            new TreeMap<String, IMetric>(
                Map.of(
                    "tasks", taskBacklog(environmentName, "SampleCount"),
                    "dispatched",
                        environmentMetric(
                            PlatformMetric.MODULE_DISPATCHES, environmentName, "Sum"))))
        .label("Dispatches while no gateway task runs")
        .period(Duration.minutes(1))
        .build();
  }

  private static Metric taskBacklog(String environmentName, String statistic) {
    return environmentMetric(PlatformMetric.GATEWAY_TASK_BACKLOG, environmentName, statistic);
  }

  private static Metric environmentMetric(
      PlatformMetric metric, String environmentName, String statistic) {
    return Metric.Builder.create()
        .namespace(Alerting.NAMESPACE)
        .metricName(metric.metricName())
        .dimensionsMap(Map.of(PlatformMetric.ENVIRONMENT_DIMENSION, environmentName))
        .statistic(statistic)
        .period(Duration.minutes(1))
        .build();
  }

  private ContainerImage image(DeployArtifacts.GatewayImage image) {
    return switch (image) {
      // Synth only stages the directory into the cloud assembly; `cdk deploy` builds it with
      // Docker and pushes it to the bootstrap ECR repository. The platform is pinned so an image
      // built on an arm64 workstation still runs on the task's x86_64 Fargate platform.
      case DeployArtifacts.ImageDirectory dir ->
          ContainerImage.fromAsset(
              dir.directory().toString(),
              AssetImageProps.builder().platform(Platform.LINUX_AMD64).build());
      case DeployArtifacts.EcrImage ecr ->
          ContainerImage.fromEcrRepository(
              Repository.fromRepositoryAttributes(
                  this,
                  "Repository",
                  RepositoryAttributes.builder()
                      .repositoryName(ecr.repository())
                      .repositoryArn(
                          "arn:aws:ecr:"
                              + ecr.region()
                              + ":"
                              + ecr.account()
                              + ":repository/"
                              + ecr.repository())
                      .build()),
              ecr.tagOrDigest());
    };
  }

  public IRole taskRole() {
    return service.getTaskDefinition().getTaskRole();
  }

  public FargateService service() {
    return service;
  }

  public SecurityGroup securityGroup() {
    return securityGroup;
  }

  public NetworkLoadBalancer loadBalancer() {
    return loadBalancer;
  }
}
