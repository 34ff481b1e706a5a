package dev.protomolt.localstack.sfn;

import dev.protomolt.db.Migrations;
import dev.protomolt.localstack.sfn.api.AwsJsonServer;
import dev.protomolt.localstack.sfn.engine.ExecutionEngine;
import dev.protomolt.localstack.sfn.store.ExecutionStore;
import dev.protomolt.localstack.sfn.store.StateMachineStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.security.SecureRandom;
import java.util.Objects;
import java.util.function.DoubleSupplier;
import javax.sql.DataSource;

/**
 * The local Step Functions runtime: executes the supported ASL subset and serves the Step
 * Functions API over AWS JSON 1.0 on a loopback port. Executions live in Postgres, so a
 * {@link #stop()} followed by a new {@link #start} resumes every running execution.
 */
public final class LocalStepFunctions implements AutoCloseable {

  /** Region and account that ARNs are minted in; requests in any region are accepted. */
  public static final String REGION = "us-east-1";

  public static final String ACCOUNT = "000000000000";

  private final AwsJsonServer server;
  private final ExecutionEngine engine;

  private LocalStepFunctions(AwsJsonServer server, ExecutionEngine engine) {
    this.server = server;
    this.engine = engine;
  }

  /**
   * Applies the migrations, resumes running executions and starts serving.
   *
   * @param port the loopback port, 0 for any free one
   * @param dataSource Postgres holding the runtime's tables (applied here if missing)
   * @param lambda how Task states invoke Lambda functions
   * @param clock wall clock in the local cloud, a {@link FakeClock} in tests
   */
  public static LocalStepFunctions start(
      int port, DataSource dataSource, LambdaInvoker lambda, Clock clock) {
    SecureRandom random = new SecureRandom();
    return start(port, dataSource, lambda, clock, random::nextDouble);
  }

  /** Same, with the random source used by JitterStrategy FULL and alias routing. */
  public static LocalStepFunctions start(
      int port, DataSource dataSource, LambdaInvoker lambda, Clock clock, DoubleSupplier random) {
    Objects.requireNonNull(dataSource, "dataSource");
    Objects.requireNonNull(lambda, "lambda");
    Objects.requireNonNull(clock, "clock");
    LocalSfnSchema.adoptLegacy(dataSource);
    Migrations.apply(dataSource);
    LocalSfnSchema.apply(dataSource);
    Arns arns = new Arns(REGION, ACCOUNT);
    StateMachineStore machines = new StateMachineStore(dataSource);
    ExecutionStore executions = new ExecutionStore(dataSource);
    ExecutionEngine engine = new ExecutionEngine(executions, machines, arns, lambda, clock, random);
    AwsJsonServer server;
    try {
      server = new AwsJsonServer(port, machines, executions, engine, arns, clock);
    } catch (IOException e) {
      throw new UncheckedIOException(e.getMessage(), e);
    }
    // Resume before serving, so a SendTask* call never arrives before its execution is back.
    engine.resumeAll();
    server.start();
    return new LocalStepFunctions(server, engine);
  }

  /** The endpoint to give an SDK client or {@code aws --endpoint-url}. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.port());
  }

  /** Stops serving and running; executions stay RUNNING in Postgres and resume on next start. */
  public void stop() {
    server.stop();
    engine.shutdown();
  }

  @Override
  public void close() {
    stop();
  }
}
