package dev.protomolt.engine.activation;

import java.util.Map;

/**
 * Where a compiled state machine runs: the environment name (part of every machine name) and the
 * ARNs of the four engine Lambdas its Task states invoke.
 */
public record EngineFunctions(
    String environment, String prepareArn, String dispatchArn, String completeArn, String dlqArn) {

  public EngineFunctions {
    requireArn("prepareArn", prepareArn);
    requireArn("dispatchArn", dispatchArn);
    requireArn("completeArn", completeArn);
    requireArn("dlqArn", dlqArn);
  }

  /** The compiler's substitutions, with the definition's own version ARN. */
  Map<String, String> substitutions(String stateMachineVersionArn) {
    return Map.of(
        "PrepareFunctionArn",
        prepareArn,
        "DispatchFunctionArn",
        dispatchArn,
        "CompleteFunctionArn",
        completeArn,
        "DlqFunctionArn",
        dlqArn,
        "StateMachineVersionArn",
        stateMachineVersionArn);
  }

  private static void requireArn(String field, String value) {
    if (value == null || !value.startsWith("arn:") || !value.contains(":function:")) {
      throw new IllegalArgumentException(
          field + " must be a Lambda function ARN (arn:...:function:<name>), was '" + value + "'");
    }
  }
}
