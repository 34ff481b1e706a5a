package dev.protomolt.access;

import java.util.Map;

/** How a function reaches the Kafka brokers. */
public sealed interface BrokerAccess {

  /** Extra client settings: how to authenticate. Never durability or timeouts. */
  Map<String, Object> connection();

  /** Plain {@code bootstrap.servers}: the local cloud's broker, or any unauthenticated cluster. */
  record Bootstrap(String servers) implements BrokerAccess {
    @Override
    public Map<String, Object> connection() {
      return Map.of();
    }
  }

  /**
   * MSK with IAM access control: the brokers come from {@code GetBootstrapBrokers} on the cluster
   * ARN (the IAM listener), and the client signs in with the function's role over SASL/TLS through
   * the aws-msk-iam-auth login module.
   */
  record MskIam(String clusterArn) implements BrokerAccess {
    @Override
    public Map<String, Object> connection() {
      return Map.of(
          "security.protocol", "SASL_SSL",
          "sasl.mechanism", "AWS_MSK_IAM",
          "sasl.jaas.config", "software.amazon.msk.auth.iam.IAMLoginModule required;",
          "sasl.client.callback.handler.class",
              "software.amazon.msk.auth.iam.IAMClientCallbackHandler");
    }
  }
}
