package dev.protomolt.engine.graphs;

import static dev.protomolt.core.graph.SampleGraphs.linear;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.graph.FakeClock;
import dev.protomolt.core.graph.GraphAdminException;
import dev.protomolt.core.graph.GraphStore;
import dev.protomolt.core.graph.validation.GraphValidator;
import dev.protomolt.localstack.sfn.LocalStepFunctions;
import java.net.URI;
import java.time.Instant;
import java.util.OptionalLong;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * Pins counted against real executions of the local Step Functions runtime: a delete is refused
 * while an execution runs on the version and allowed once it has stopped.
 */
class StepFunctionsVersionPinsTest {

  /** A Work-style task: the execution stays RUNNING until someone completes its task token. */
  private static final String WAIT_FOR_MODULE =
      """
      {"StartAt":"Work","States":{"Work":{"Type":"Task",
        "Resource":"arn:aws:states:::lambda:invoke.waitForTaskToken",
        "Parameters":{"FunctionName":"dispatch","Payload":{"token.$":"$$.Task.Token"}},
        "End":true}}}\
      """;

  private LocalStepFunctions runtime;
  private SfnClient sfn;
  private GraphStore store;
  private GraphAdminService admin;

  @BeforeEach
  void start() throws Exception {
    DataSource ds = EmbeddedDatabase.emptied();
    runtime =
        LocalStepFunctions.start(
            0,
            ds,
            (fn, payload) -> "{}",
            new dev.protomolt.localstack.sfn.FakeClock(Instant.parse("2026-03-01T12:00:00Z")));
    sfn =
        SfnClient.builder()
            .endpointOverride(URI.create(runtime.endpoint().toString()))
            .region(Region.US_EAST_1)
            .credentialsProvider(
                StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
            .httpClient(UrlConnectionHttpClient.create())
            .build();
    store = new PostgresGraphStore(ds);
    admin =
        new GraphAdminService(
            store,
            new StepFunctionsVersionPins(sfn, store),
            new RecordingPublisher(),
            GraphValidator.standard(GraphAdminServiceTest.CEL, GraphAdminServiceTest.TENANCY),
            new FakeClock(Instant.parse("2026-03-01T12:00:00Z")));
  }

  @AfterEach
  void stop() {
    sfn.close();
    runtime.close();
  }

  @Test
  void aRunningExecutionOnTheVersionPinsIt() {
    admin.create(linear("g", 0), OptionalLong.empty(), "ann");
    admin.create(linear("g", 0), OptionalLong.empty(), "ann");
    String versionArn =
        sfn.createStateMachine(
                b ->
                    b.name("g-" + UUID.randomUUID().toString().substring(0, 8))
                        .definition(WAIT_FOR_MODULE)
                        .roleArn("arn:aws:iam::000000000000:role/protomolt")
                        .publish(true))
            .stateMachineVersionArn();
    admin.recordStateMachineVersion("g", 1, versionArn);
    admin.activate("g", "c1", 2);
    StepFunctionsVersionPins pins = new StepFunctionsVersionPins(sfn, store);
    assertThat(pins.pinnedDocuments("g", 1)).isZero();
    assertThat(pins.pinnedDocuments("g", 2)).as("never published: nothing can run on it").isZero();

    String execution =
        sfn.startExecution(b -> b.stateMachineArn(versionArn).name("doc-1").input("{}"))
            .executionArn();
    assertThat(pins.pinnedDocuments("g", 1)).isEqualTo(1);
    assertThatThrownBy(() -> admin.delete("g", "c1", 1))
        .isInstanceOfSatisfying(
            GraphAdminException.class,
            e -> assertThat(e.reason()).isEqualTo(GraphAdminException.Reason.FAILED_PRECONDITION))
        .hasMessageContaining(
            "version 1 (state machine version "
                + versionArn
                + ") has 1 running execution(s) pinned to it");

    sfn.stopExecution(b -> b.executionArn(execution).error("Drained").cause("test"));
    assertThat(pins.pinnedDocuments("g", 1)).isZero();
    admin.delete("g", "c1", 1);
    assertThat(store.get("g", 1)).isEmpty();
  }
}
