package dev.protomolt.gateway;

import dev.protomolt.names.PlatformVariable;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the gateway needs to serve {@code PipelineGraphService}: the drafts table, and what
 * activation embeds in every state machine it deploys (the role the machines run as and the four
 * hop functions they invoke), the same settings the graph-admin function is given.
 *
 * <p>The door is served when {@code PROTOMOLT_DRAFTS_TABLE} is set; then every other key here is
 * required. With none of them set the gateway serves no graph door (a gateway run by hand for
 * module work only). Setting some but not all is refused, naming the first key missing.
 *
 * @param draftsTable the DynamoDB table drafts are kept in
 * @param executionRoleArn the role every graph state machine runs as
 * @param prepareArn the prepare function (or alias) ARN the compiled Task states invoke
 * @param dispatchArn the dispatch function ARN
 * @param completeArn the complete function ARN
 * @param dlqArn the dead-letter function ARN
 * @param dynamoDbEndpoint {@code AWS_ENDPOINT_URL_DYNAMODB}, the SDKs' own override; empty for
 *     DynamoDB itself
 */
public record GraphDoorSettings(
    String draftsTable,
    String executionRoleArn,
    String prepareArn,
    String dispatchArn,
    String completeArn,
    String dlqArn,
    Optional<URI> dynamoDbEndpoint) {

  private static final List<PlatformVariable> KEYS =
      List.of(
          PlatformVariable.DRAFTS_TABLE,
          PlatformVariable.EXECUTION_ROLE_ARN,
          PlatformVariable.PREPARE_FUNCTION_ARN,
          PlatformVariable.DISPATCH_FUNCTION_ARN,
          PlatformVariable.COMPLETE_FUNCTION_ARN,
          PlatformVariable.DLQ_FUNCTION_ARN);

  /** The door's settings from {@code values}, or empty when none of its keys is set. */
  public static Optional<GraphDoorSettings> from(Map<String, String> values) {
    if (KEYS.stream().allMatch(k -> blank(values.get(k.key())))) {
      return Optional.empty();
    }
    String table = required(values, PlatformVariable.DRAFTS_TABLE);
    if (!table.matches("[A-Za-z0-9_.-]{3,255}")) {
      throw new IllegalArgumentException(
          PlatformVariable.DRAFTS_TABLE.key()
              + ": must be a DynamoDB table name (3-255 letters, digits, '_', '-' or '.'), got \""
              + table
              + "\"");
    }
    String role = required(values, PlatformVariable.EXECUTION_ROLE_ARN);
    if (!role.startsWith("arn:") || !role.contains(":role/")) {
      throw new IllegalArgumentException(
          PlatformVariable.EXECUTION_ROLE_ARN.key()
              + ": must be an IAM role ARN (arn:...:role/<name>), got \""
              + role
              + "\"");
    }
    String endpoint = values.getOrDefault(PlatformVariable.DYNAMODB_ENDPOINT.key(), "").strip();
    return Optional.of(
        new GraphDoorSettings(
            table,
            role,
            function(values, PlatformVariable.PREPARE_FUNCTION_ARN),
            function(values, PlatformVariable.DISPATCH_FUNCTION_ARN),
            function(values, PlatformVariable.COMPLETE_FUNCTION_ARN),
            function(values, PlatformVariable.DLQ_FUNCTION_ARN),
            endpoint.isEmpty()
                ? Optional.empty()
                : Optional.of(endpoint(endpoint, PlatformVariable.DYNAMODB_ENDPOINT.key()))));
  }

  private static String function(Map<String, String> values, PlatformVariable key) {
    String arn = required(values, key);
    if (!arn.startsWith("arn:") || !arn.contains(":function:")) {
      throw new IllegalArgumentException(
          key.key()
              + ": must be a Lambda function ARN (arn:...:function:<name>), got \""
              + arn
              + "\"");
    }
    return arn;
  }

  private static String required(Map<String, String> values, PlatformVariable key) {
    String v = values.get(key.key());
    if (blank(v)) {
      throw new IllegalArgumentException(
          key.key()
              + ": required when the graph door is configured (any of "
              + String.join(", ", KEYS.stream().map(PlatformVariable::key).toList())
              + " is set)");
    }
    return v.strip();
  }

  private static URI endpoint(String value, String key) {
    URI u;
    try {
      u = URI.create(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(key + ": not a URL: \"" + value + "\"", e);
    }
    if (u.getScheme() == null || u.getHost() == null) {
      throw new IllegalArgumentException(
          key + ": must be an absolute URL such as http://127.0.0.1:18130, got \"" + value + "\"");
    }
    return u;
  }

  private static boolean blank(String v) {
    return v == null || v.isBlank();
  }
}
