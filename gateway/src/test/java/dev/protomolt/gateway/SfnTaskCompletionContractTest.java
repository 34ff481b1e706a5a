package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.protomolt.localstack.sfn.Clock;
import dev.protomolt.localstack.sfn.LocalStepFunctions;
import dev.protomolt.testsupport.StepFunctionsExecutions;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * {@link SfnTaskCompletion} holds the {@link TaskCompletion} contract against real callback tasks
 * ({@code .waitForTaskToken}) on the local Step Functions runtime: each waiting token is the
 * {@code $$.Task.Token} of a fresh execution, and what the task received is what its execution
 * ended with. The Work state is shaped like the compiled one: a TimeoutSeconds and no
 * HeartbeatSeconds (decision 1650), on which a heartbeat is a liveness probe of the token.
 */
class SfnTaskCompletionContractTest extends TaskCompletionContract {

  static final String DEFINITION =
      """
      {"StartAt":"Work","States":{
        "Work":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke.waitForTaskToken",
          "Parameters":{"FunctionName":"dispatch","Payload":{"token.$":"$$.Task.Token"}},
          "TimeoutSeconds":600,"End":true}}}\
      """;

  static EmbeddedPostgres postgres;
  static LocalStepFunctions runtime;
  static SfnClient sfn;
  static String machine;
  static final LinkedBlockingQueue<String> TOKENS = new LinkedBlockingQueue<>();
  static final Map<String, String> EXECUTION_OF_TOKEN = new ConcurrentHashMap<>();
  static final ObjectMapper JSON = new ObjectMapper();

  @BeforeAll
  static void start() throws Exception {
    postgres = EmbeddedPostgres.builder().start();
    runtime =
        LocalStepFunctions.start(
            0,
            postgres.getPostgresDatabase(),
            (fn, payload) -> {
              try {
                TOKENS.add(JSON.readTree(payload).path("token").asText());
              } catch (Exception e) {
                throw new IllegalStateException("unreadable dispatch payload " + payload, e);
              }
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
                    b.name("task-completion-contract")
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

  @Override
  protected TaskCompletion completion() {
    return new SfnTaskCompletion(sfn);
  }

  @Override
  protected String waitingToken() throws Exception {
    String arn = sfn.startExecution(b -> b.stateMachineArn(machine).input("{}")).executionArn();
    // One execution starts at a time, so the next token handed out is this execution's.
    String token = TOKENS.poll(60, TimeUnit.SECONDS);
    assertThat(token).as("the Work state of %s handed out its token", arn).isNotNull();
    EXECUTION_OF_TOKEN.put(token, arn);
    return token;
  }

  @Override
  protected Completed completedWith(String token) throws Exception {
    DescribeExecutionResponse done =
        StepFunctionsExecutions.awaitClosed(sfn, EXECUTION_OF_TOKEN.get(token));
    if (done.status() == ExecutionStatus.SUCCEEDED) {
      // The runtime re-serializes the output; the same JSON value is what the task received.
      String output =
          JSON.readTree(done.output()).equals(JSON.readTree(OUTPUT)) ? OUTPUT : done.output();
      return new Completed(true, output, null, null);
    }
    return new Completed(false, null, done.error(), done.cause());
  }

  @Override
  protected void endWithoutCompleting(String token) {
    sfn.stopExecution(b -> b.executionArn(EXECUTION_OF_TOKEN.get(token)).error("Test.Stopped"));
  }
}
