package dev.protomolt.cdk.constructs;

import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Acknowledgment;
import software.amazon.awscdk.Validations;
import software.amazon.awscdk.services.ec2.GatewayVpcEndpointAwsService;
import software.amazon.awscdk.services.ec2.GatewayVpcEndpointOptions;
import software.amazon.awscdk.services.ec2.IpAddresses;
import software.amazon.awscdk.services.ec2.SubnetConfiguration;
import software.amazon.awscdk.services.ec2.SubnetSelection;
import software.amazon.awscdk.services.ec2.SubnetType;
import software.amazon.awscdk.services.ec2.Vpc;
import software.constructs.Construct;

/**
 * The environment's VPC: public subnets for the load balancer and NAT, private subnets with egress
 * for the Lambdas, the gateway and MSK, isolated subnets for the database. S3 and DynamoDB are
 * reached through free gateway endpoints so document bytes never pay for NAT.
 */
public final class Network extends Construct {

  /** Validated settings. */
  public record Props(String cidr, int natGateways, List<String> availabilityZones) {
    public Props {
      if (cidr == null || !cidr.matches("(\\d{1,3}\\.){3}\\d{1,3}/(1[6-9]|2[0-4])")) {
        throw new IllegalArgumentException(
            "network.cidr: must be an IPv4 CIDR /16 to /24, got " + cidr);
      }
      if (natGateways < 1) {
        throw new IllegalArgumentException(
            "network.natGateways: must be at least 1 (got " + natGateways + ")");
      }
      if (availabilityZones == null || availabilityZones.size() < 2) {
        throw new IllegalArgumentException("availabilityZones: at least two are required");
      }
      if (natGateways > availabilityZones.size()) {
        throw new IllegalArgumentException(
            "network.natGateways: at most one per zone ("
                + availabilityZones.size()
                + "), got "
                + natGateways);
      }
      availabilityZones = List.copyOf(availabilityZones);
    }
  }

  private final Vpc vpc;

  public Network(Construct scope, String id, Props props) {
    super(scope, id);
    this.vpc =
        Vpc.Builder.create(this, "Vpc")
            .ipAddresses(IpAddresses.cidr(props.cidr()))
            .availabilityZones(props.availabilityZones())
            .natGateways(props.natGateways())
            .subnetConfiguration(
                List.of(
                    SubnetConfiguration.builder()
                        .name("public")
                        .subnetType(SubnetType.PUBLIC)
                        .cidrMask(24)
                        .build(),
                    SubnetConfiguration.builder()
                        .name("app")
                        .subnetType(SubnetType.PRIVATE_WITH_EGRESS)
                        .cidrMask(22)
                        .build(),
                    SubnetConfiguration.builder()
                        .name("data")
                        .subnetType(SubnetType.PRIVATE_ISOLATED)
                        .cidrMask(24)
                        .build()))
            .gatewayEndpoints(
                Map.of(
                    "S3",
                        GatewayVpcEndpointOptions.builder()
                            .service(GatewayVpcEndpointAwsService.S3)
                            .build(),
                    "DynamoDb",
                        GatewayVpcEndpointOptions.builder()
                            .service(GatewayVpcEndpointAwsService.DYNAMODB)
                            .build()))
            .build();
    // CloudFormation's linter (run at synth) flags hard-coded zones; they are configured on purpose
    // so that synth needs no account lookup (decision 0653).
    Validations.of(this)
        .acknowledge(
            Acknowledgment.builder()
                .id("CloudFormation-Validate::W3010")
                .reason(
                    "availability zones come from config/<env>.json so that synth needs no AWS"
                        + " lookup")
                .build());
  }

  public Vpc vpc() {
    return vpc;
  }

  /** Where compute runs: private, with a route out through NAT. */
  public SubnetSelection appSubnets() {
    return SubnetSelection.builder().subnetType(SubnetType.PRIVATE_WITH_EGRESS).build();
  }

  /** Where the database runs: no route to the internet at all. */
  public SubnetSelection dataSubnets() {
    return SubnetSelection.builder().subnetType(SubnetType.PRIVATE_ISOLATED).build();
  }

  public SubnetSelection publicSubnets() {
    return SubnetSelection.builder().subnetType(SubnetType.PUBLIC).build();
  }
}
