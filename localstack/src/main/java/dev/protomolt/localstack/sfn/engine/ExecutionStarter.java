package dev.protomolt.localstack.sfn.engine;

import java.time.Instant;

/** Starts executions; used by the API and by {@code states:startExecution} tasks alike. */
public interface ExecutionStarter {

  /** The started (or, by name idempotency, the already running) execution. */
  record Started(String executionArn, Instant startDate) {}

  /**
   * @param targetArn a state machine, version or alias ARN
   * @param name the execution name, or null for a generated one
   * @param input JSON text, or null for {@code {}}
   * @param parentArn the execution that started this one from a task, or null
   */
  Started start(String targetArn, String name, String input, String parentArn);
}
