package dev.protomolt.localstack.sfn;

import dev.protomolt.testsupport.Eventually;
import dev.protomolt.testsupport.StepFunctionsExecutions;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;

/**
 * One local runtime on its own fresh database, with a fake clock and scripted Lambdas, and an
 * {@link SfnClient} pointed at it. The embedded PostgreSQL server is shared by every test class.
 */
final class SfnFixture implements AutoCloseable {

  static final Instant EPOCH = Instant.parse("2026-01-01T00:00:00Z");

  /** Bounds how long a test waits for work it triggered; never asserted on. */
  static final Duration PATIENCE = Duration.ofSeconds(20);

  private static EmbeddedPostgres postgres;
  private static final AtomicInteger DATABASES = new AtomicInteger();

  final FakeClock clock = new FakeClock(EPOCH);
  final ScriptedLambdas lambdas = new ScriptedLambdas();
  final DataSource dataSource;
  final SfnClient client;
  LocalStepFunctions runtime;
  private final double jitter;

  private SfnFixture(DataSource dataSource, double jitter) {
    this.dataSource = dataSource;
    this.jitter = jitter;
    this.runtime = LocalStepFunctions.start(0, dataSource, lambdas, clock, () -> jitter);
    this.client = client(runtime.endpoint());
  }

  static SfnFixture start() {
    return new SfnFixture(freshDatabase(), 0.5);
  }

  /** Stops the runtime and starts a new one on the same database, as a local-cloud restart does. */
  void restart() {
    runtime.stop();
    runtime =
        LocalStepFunctions.start(
            runtime.endpoint().getPort(), dataSource, lambdas, clock, () -> jitter);
  }

  static SfnClient client(URI endpoint) {
    return SfnClient.builder()
        .endpointOverride(endpoint)
        .region(Region.EU_WEST_1)
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
        .httpClient(UrlConnectionHttpClient.create())
        .build();
  }

  static synchronized DataSource freshDatabase() {
    try {
      if (postgres == null) {
        postgres = EmbeddedPostgres.builder().start();
        Runtime.getRuntime()
            .addShutdownHook(
                new Thread(
                    () -> {
                      try {
                        postgres.close();
                      } catch (IOException e) {
                        // The JVM is exiting; nothing left to clean up after.
                      }
                    }));
      }
      String name = "sfn_" + DATABASES.incrementAndGet();
      try (Connection c = postgres.getPostgresDatabase().getConnection();
          Statement s = c.createStatement()) {
        s.execute("CREATE DATABASE " + name);
      }
      return postgres.getDatabase("postgres", name);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  String createMachine(String name, String definition) {
    return client
        .createStateMachine(
            b -> b.name(name).definition(definition).roleArn("arn:aws:iam::000000000000:role/test"))
        .stateMachineArn();
  }

  String startExecution(String machineArn, String input) {
    return client.startExecution(b -> b.stateMachineArn(machineArn).input(input)).executionArn();
  }

  /** Waits until the execution has closed and returns it. */
  DescribeExecutionResponse awaitClosed(String executionArn) {
    return StepFunctionsExecutions.awaitClosed(client, executionArn, PATIENCE);
  }

  /** Runs a definition on {@code input} and waits for it to close. */
  DescribeExecutionResponse run(String definition, String input) {
    String arn = createMachine("m-" + UUID.randomUUID(), definition);
    return awaitClosed(startExecution(arn, input));
  }

  static void awaitTrue(BooleanSupplier condition, String what) {
    Eventually.until(what, PATIENCE, condition);
  }

  void awaitTimers(int count) {
    try {
      clock.awaitPendingTimers(count, PATIENCE);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  @Override
  public void close() {
    client.close();
    runtime.stop();
  }
}
