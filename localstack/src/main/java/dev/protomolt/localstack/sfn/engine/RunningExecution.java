package dev.protomolt.localstack.sfn.engine;

import dev.protomolt.localstack.sfn.Clock;

/** An execution this process is running: its context, its history and its thread. */
final class RunningExecution {

  final String arn;
  final ExecutionContext context;
  final History history;
  volatile Thread thread;
  volatile Clock.Timer timeoutTimer;

  RunningExecution(String arn, ExecutionContext context, History history) {
    this.arn = arn;
    this.context = context;
    this.history = history;
  }
}
