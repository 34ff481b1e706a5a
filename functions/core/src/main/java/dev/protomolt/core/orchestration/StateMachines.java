package dev.protomolt.core.orchestration;

import java.util.Optional;

/**
 * The few Step Functions operations the engine needs: deploy a graph version's state machine,
 * point its {@code active} alias, and start executions. The engine module adapts it to the AWS
 * SDK; keeping it here lets the activation and admission rules stay free of the SDK.
 */
public interface StateMachines {

  /** The ARN of the state machine called {@code name}, if it exists. */
  Optional<String> machineArn(String name);

  /** Creates a state machine without publishing a version; returns its ARN. */
  String create(String name, String definition);

  /**
   * Replaces the machine's definition and publishes it as a new version in one call; returns the
   * published version ARN.
   */
  String updateAndPublish(String machineArn, String definition, String description);

  /** Creates the alias or moves it so that all traffic goes to {@code versionArn}. */
  void pointAlias(String machineArn, String aliasName, String versionArn);

  /** The version ARN the alias sends all traffic to, or empty when the alias does not exist. */
  Optional<String> aliasTarget(String machineArn, String aliasName);

  /** Starts an execution with a fixed name; a name already used is reported, never an error. */
  StartOutcome start(String stateMachineOrVersionArn, String executionName, String input);

  /** What a named start did. */
  sealed interface StartOutcome {
    /**
     * A new execution started, or (as Step Functions answers a repeated start with the same name
     * and input while the first still runs) the running one, under the same ARN.
     */
    record Started(String executionArn) implements StartOutcome {}

    /**
     * An execution with this name already exists and has finished, or runs with another input: a
     * repeated request has converged on it.
     */
    record AlreadyExists(String executionName, String detail) implements StartOutcome {}
  }
}
