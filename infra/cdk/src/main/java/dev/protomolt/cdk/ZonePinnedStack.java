package dev.protomolt.cdk;

import java.util.List;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.constructs.Construct;

/**
 * A stack with an account and region whose availability zones come from configuration. A stack
 * with a concrete environment would otherwise look its zones up in the AWS account at synth time,
 * which needs credentials; answering from configuration keeps {@code cdk synth} offline.
 */
public class ZonePinnedStack extends Stack {

  private final List<String> zones;

  public ZonePinnedStack(Construct scope, String id, StackProps props, List<String> zones) {
    super(scope, id, props);
    if (zones == null || zones.size() < 2) {
      throw new IllegalArgumentException("zones: at least two availability zones are required");
    }
    this.zones = List.copyOf(zones);
  }

  @Override
  public List<String> getAvailabilityZones() {
    return zones;
  }
}
