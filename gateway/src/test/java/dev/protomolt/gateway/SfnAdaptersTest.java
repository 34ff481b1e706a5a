package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.localstack.sfn.Clock;
import dev.protomolt.localstack.sfn.LocalStepFunctions;
import dev.protomolt.proto.module.v1.WorkDispatch;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * The Step Functions execution screen against the local runtime's real callback tasks. The task
 * completion adapter is held to its port's contract in {@link SfnTaskCompletionContractTest}.
 */
class SfnAdaptersTest {

  static final String DEFINITION =
      """
      {"StartAt":"Work","States":{
        "Work":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke.waitForTaskToken",
          "Parameters":{"FunctionName":"dispatch","Payload":{"token.$":"$$.Task.Token"}},
          "HeartbeatSeconds":60,"TimeoutSeconds":300,"End":true}}}\
      """;

  static EmbeddedPostgres postgres;
  static LocalStepFunctions runtime;
  static SfnClient sfn;
  static String machine;
  static final LinkedBlockingQueue<String> TOKENS = new LinkedBlockingQueue<>();

  @BeforeAll
  static void start() throws Exception {
    postgres = EmbeddedPostgres.builder().start();
    runtime =
        LocalStepFunctions.start(
            0,
            postgres.getPostgresDatabase(),
            (fn, payload) -> {
              // The payload is {"token":"..."}; the token is opaque text without quotes.
              String token =
                  payload.substring(payload.indexOf(":\"") + 2, payload.lastIndexOf('"'));
              TOKENS.add(token);
              return "{}";
            },
            Clock.system());
    sfn =
        SfnClient.builder()
            .endpointOverride(runtime.endpoint())
            .region(Region.US_EAST_1)
            .httpClient(UrlConnectionHttpClient.create())
            .credentialsProvider(
                StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
            .build();
    machine =
        sfn.createStateMachine(
                b ->
                    b.name("adapters")
                        .definition(DEFINITION)
                        .roleArn("arn:aws:iam::000000000000:role/local"))
            .stateMachineArn();
  }

  @AfterAll
  static void stop() throws Exception {
    sfn.close();
    runtime.close();
    postgres.close();
  }

  static String[] startWaiting() throws InterruptedException {
    String arn = sfn.startExecution(b -> b.stateMachineArn(machine).input("{}")).executionArn();
    String token = TOKENS.poll(30, TimeUnit.SECONDS);
    assertThat(token).as("the Work state handed out its token").isNotNull();
    return new String[] {arn, token};
  }

  @Test
  void theExecutionScreenServesRunningExecutionsAndDrainsEndedOnes() throws Exception {
    String[] running = startWaiting();
    String[] stopped = startWaiting();
    sfn.stopExecution(b -> b.executionArn(stopped[0]));
    assertThat(sfn.describeExecution(b -> b.executionArn(stopped[0])).status())
        .isEqualTo(ExecutionStatus.ABORTED);

    SfnExecutionScreen screen = new SfnExecutionScreen(sfn, Duration.ofSeconds(5));
    assertThat(screen.screen(WorkDispatch.newBuilder().setExecutionArn(running[0]).build()))
        .isEqualTo(ScreenVerdict.SERVE);
    assertThat(
            screen.screen(
                WorkDispatch.newBuilder()
                    .setWorkUnitId("u-stop")
                    .setExecutionArn(stopped[0])
                    .build()))
        .isInstanceOfSatisfying(
            ScreenVerdict.Drain.class,
            d -> {
              assertThat(d.reason()).isEqualTo("execution-ended");
              assertThat(d.detail()).contains("ABORTED", "u-stop");
            });
    assertThat(
            screen.screen(
                WorkDispatch.newBuilder().setExecutionArn(running[0] + "-missing").build()))
        .as("an execution that does not exist")
        .isInstanceOf(ScreenVerdict.Drain.class);
    new SfnTaskCompletion(sfn).succeed(running[1], "{}");

    // A redrive reopens the aborted execution under the same ARN: its new dispatch is served,
    // although the screen drained one of the same execution before.
    sfn.redriveExecution(b -> b.executionArn(stopped[0]));
    String redrivenToken = TOKENS.poll(30, TimeUnit.SECONDS);
    assertThat(redrivenToken).as("the redriven Work state handed out a new token").isNotNull();
    assertThat(
            screen.screen(
                WorkDispatch.newBuilder()
                    .setWorkUnitId("u-stop")
                    .setExecutionArn(stopped[0])
                    .build()))
        .isEqualTo(ScreenVerdict.SERVE);
    new SfnTaskCompletion(sfn).succeed(redrivenToken, "{}");
  }
}
