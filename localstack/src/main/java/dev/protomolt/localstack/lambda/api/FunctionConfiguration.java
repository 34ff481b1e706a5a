package dev.protomolt.localstack.lambda.api;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * What the Lambda API reports about one deployed function: the fields of Lambda's {@code
 * FunctionConfiguration} the template sets.
 *
 * @param arn the unqualified function ARN
 * @param timeoutSeconds the template's {@code Timeout} (Lambda's default is 3)
 * @param memorySizeMb the template's {@code MemorySize} (Lambda's default is 128)
 * @param environment the resolved {@code Environment.Variables}
 * @param aliases alias name → the version it points at, from the template's {@code
 *     AWS::Lambda::Alias} resources
 */
public record FunctionConfiguration(
    String name,
    String arn,
    String handler,
    String runtime,
    int timeoutSeconds,
    int memorySizeMb,
    Map<String, String> environment,
    String roleArn,
    String description,
    Map<String, String> aliases) {

  private static final Pattern NAME = Pattern.compile("[a-zA-Z0-9_-]{1,64}");

  public FunctionConfiguration {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "name: '" + name + "' must be 1-64 letters, digits, hyphens or underscores");
    }
    if (arn == null || !arn.startsWith("arn:") || !arn.endsWith(":function:" + name)) {
      throw new IllegalArgumentException(
          "arn: '" + arn + "' must be the unqualified ARN of function " + name);
    }
    Objects.requireNonNull(handler, "handler");
    Objects.requireNonNull(runtime, "runtime");
    if (timeoutSeconds < 1 || timeoutSeconds > 900) {
      throw new IllegalArgumentException(
          "timeoutSeconds: " + timeoutSeconds + " must be 1-900, as Lambda allows");
    }
    if (memorySizeMb < 128 || memorySizeMb > 10240) {
      throw new IllegalArgumentException(
          "memorySizeMb: " + memorySizeMb + " must be 128-10240, as Lambda allows");
    }
    environment = Map.copyOf(new TreeMap<>(environment));
    Objects.requireNonNull(roleArn, "roleArn");
    description = description == null ? "" : description;
    aliases = Map.copyOf(aliases);
  }
}
