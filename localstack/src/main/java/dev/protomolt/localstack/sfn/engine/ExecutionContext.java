package dev.protomolt.localstack.sfn.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.protomolt.localstack.sfn.asl.Json;
import java.time.Instant;

/** What the context object ({@code $$}) says about the execution itself. */
record ExecutionContext(
    String executionArn,
    String executionName,
    JsonNode input,
    Instant startTime,
    String roleArn,
    String stateMachineArn,
    String stateMachineName,
    int redriveCount) {

  /**
   * The context object for one state.
   *
   * @param token the task token, or null outside a callback task
   * @param itemIndex the Map item index, or -1 outside a Map's ItemSelector
   */
  JsonNode contextObject(
      String stateName,
      Instant enteredTime,
      int retryCount,
      String token,
      int itemIndex,
      JsonNode itemValue) {
    ObjectNode root = Json.object();
    ObjectNode execution = root.putObject("Execution");
    execution.put("Id", executionArn);
    execution.put("Name", executionName);
    execution.set("Input", input);
    execution.put("StartTime", startTime.toString());
    execution.put("RoleArn", roleArn);
    execution.put("RedriveCount", redriveCount);
    ObjectNode machine = root.putObject("StateMachine");
    machine.put("Id", stateMachineArn);
    machine.put("Name", stateMachineName);
    ObjectNode state = root.putObject("State");
    state.put("Name", stateName);
    state.put("EnteredTime", enteredTime.toString());
    state.put("RetryCount", retryCount);
    if (token != null) {
      root.putObject("Task").put("Token", token);
    }
    if (itemIndex >= 0) {
      ObjectNode item = root.putObject("Map").putObject("Item");
      item.put("Index", itemIndex);
      item.set("Value", itemValue);
    }
    return root;
  }
}
