package dev.protomolt.localstack.sfn;

/**
 * ARNs in AWS form for one region and account. Incoming ARNs are matched on their resource part,
 * so a client configured for any region finds the same state machines.
 */
public record Arns(String region, String account) {

  /** What a state machine ARN points at. */
  public enum Kind {
    STATE_MACHINE,
    VERSION,
    ALIAS
  }

  /** A parsed {@code stateMachine} ARN: the base name and, for versions and aliases, the qualifier. */
  public record Target(Kind kind, String name, String qualifier) {}

  public String stateMachine(String name) {
    return "arn:aws:states:" + region + ":" + account + ":stateMachine:" + name;
  }

  public String version(String name, int version) {
    return stateMachine(name) + ":" + version;
  }

  public String alias(String name, String alias) {
    return stateMachine(name) + ":" + alias;
  }

  public String execution(String stateMachineName, String executionName) {
    return "arn:aws:states:"
        + region
        + ":"
        + account
        + ":execution:"
        + stateMachineName
        + ":"
        + executionName;
  }

  /**
   * Parses a state machine, version or alias ARN.
   *
   * @throws SfnApiException InvalidArn when it is not one
   */
  public Target parseStateMachine(String arn) {
    String[] parts = arn == null ? new String[0] : arn.split(":", -1);
    if (parts.length < 7
        || parts.length > 8
        || !parts[0].equals("arn")
        || !parts[2].equals("states")
        || !parts[5].equals("stateMachine")
        || parts[6].isEmpty()) {
      throw new SfnApiException(
          "InvalidArn", "Invalid Arn: 'Resource type not valid in this " + "context: " + arn + "'");
    }
    if (parts.length == 7) {
      return new Target(Kind.STATE_MACHINE, parts[6], null);
    }
    boolean version = parts[7].matches("\\d+");
    return new Target(version ? Kind.VERSION : Kind.ALIAS, parts[6], parts[7]);
  }

  /** The canonical (this region and account) form of an incoming state machine ARN. */
  public String canonicalStateMachine(String arn) {
    Target t = parseStateMachine(arn);
    return t.qualifier() == null
        ? stateMachine(t.name())
        : stateMachine(t.name()) + ":" + t.qualifier();
  }

  /**
   * The canonical form of an execution ARN.
   *
   * @throws SfnApiException InvalidArn when it is not one
   */
  public String canonicalExecution(String arn) {
    String[] parts = arn == null ? new String[0] : arn.split(":", -1);
    if (parts.length != 8
        || !parts[0].equals("arn")
        || !parts[2].equals("states")
        || !parts[5].equals("execution")) {
      throw new SfnApiException(
          "InvalidArn", "Invalid Arn: 'Resource type not valid in this " + "context: " + arn + "'");
    }
    return execution(parts[6], parts[7]);
  }
}
