package dev.protomolt.cdk.constructs;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.cdk.TestEnvironments;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

class NetworkTest {

  private static Template template;

  @BeforeAll
  static void synth() {
    Stack stack = TestEnvironments.emptyStack();
    new Network(
        stack, "Network", new Network.Props("10.1.0.0/16", 1, List.of("eu-west-1a", "eu-west-1b")));
    template = Template.fromStack(stack);
  }

  @Test
  void threeTiersInTheConfiguredZonesWithoutAnyLookup() {
    template.resourceCountIs("AWS::EC2::Subnet", 6);
    template.hasResourceProperties(
        "AWS::EC2::Subnet", Match.objectLike(Map.of("AvailabilityZone", "eu-west-1a")));
    template.hasResourceProperties(
        "AWS::EC2::Subnet", Match.objectLike(Map.of("AvailabilityZone", "eu-west-1b")));
    template.resourceCountIs("AWS::EC2::NatGateway", 1);
    template.hasResourceProperties(
        "AWS::EC2::VPC", Match.objectLike(Map.of("CidrBlock", "10.1.0.0/16")));
  }

  @Test
  void s3AndDynamoDbTrafficSkipsTheNatGateway() {
    template.resourceCountIs("AWS::EC2::VPCEndpoint", 2);
    template.allResourcesProperties(
        "AWS::EC2::VPCEndpoint", Match.objectLike(Map.of("VpcEndpointType", "Gateway")));
  }

  @Test
  void propsRejectBadShapes() {
    assertThatThrownBy(() -> new Network.Props("10.0.0.0/8", 1, List.of("a", "b")))
        .hasMessageContaining("network.cidr");
    assertThatThrownBy(() -> new Network.Props("10.0.0.0/16", 3, List.of("a", "b")))
        .hasMessageContaining("network.natGateways")
        .hasMessageContaining("one per zone");
    assertThatThrownBy(() -> new Network.Props("10.0.0.0/16", 1, List.of("a")))
        .hasMessageContaining("availabilityZones");
  }
}
