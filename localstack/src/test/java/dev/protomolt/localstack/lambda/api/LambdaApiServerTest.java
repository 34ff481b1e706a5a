package dev.protomolt.localstack.lambda.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.protomolt.localstack.lambda.LocalLambdaRunner;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.GetFunctionConfigurationResponse;
import software.amazon.awssdk.services.lambda.model.InvalidParameterValueException;
import software.amazon.awssdk.services.lambda.model.InvalidRequestContentException;
import software.amazon.awssdk.services.lambda.model.InvocationType;
import software.amazon.awssdk.services.lambda.model.InvokeResponse;
import software.amazon.awssdk.services.lambda.model.LogType;
import software.amazon.awssdk.services.lambda.model.ResourceNotFoundException;

/**
 * The local Lambda API through the AWS SDK's {@link LambdaClient} only, over a real socket: what
 * it lists, describes and invokes is exactly what the registry holds.
 */
class LambdaApiServerTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ARN = "arn:aws:lambda:us-east-1:000000000000:function:";
  private static final BlockingQueue<String> ASYNC = new LinkedBlockingQueue<>();

  private static LambdaApiServer server;
  private static LambdaClient lambda;

  @BeforeAll
  static void start() throws Exception {
    LocalLambdaRunner runner = new LocalLambdaRunner("us-east-1", "000000000000");
    runner.register("echo", (event, context) -> event);
    runner.register(
        "fails",
        (event, context) -> {
          throw new IllegalStateException("no such document");
        });
    runner.register(
        "async",
        (event, context) -> {
          ASYNC.add(event);
          return "{}";
        });
    FunctionRegistry registry = new FunctionRegistry();
    for (String name : List.of("echo", "fails", "async")) {
      registry.register(
          new FunctionConfiguration(
              name,
              ARN + name,
              "dev.protomolt.lambda." + name + "::handleRequest",
              "java21",
              name.equals("echo") ? 30 : 3,
              name.equals("echo") ? 1024 : 128,
              name.equals("echo")
                  ? Map.of(
                      "PROTOMOLT_STORE_BUCKET", "protomolt-store", "PROTOMOLT_PREFIX", "pm-dev")
                  : Map.of(),
              "arn:aws:iam::000000000000:role/pm-dev-" + name + "Role",
              "the " + name + " function",
              name.equals("echo") ? Map.of("live", "7") : Map.of()),
          payload -> runner.invoke(name, payload));
    }
    server = LambdaApiServer.start(0, registry);
    lambda =
        LambdaClient.builder()
            .endpointOverride(server.endpoint())
            .region(Region.US_EAST_1)
            .credentialsProvider(
                StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
            .httpClient(UrlConnectionHttpClient.create())
            .build();
  }

  @AfterAll
  static void stop() {
    if (lambda != null) {
      lambda.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void listFunctionsListsEveryRegisteredFunctionWithItsConfiguration() {
    var all = lambda.listFunctionsPaginator(b -> b.maxItems(1)).functions().stream().toList();
    assertThat(all)
        .extracting(function -> function.functionName())
        .containsExactly("async", "echo", "fails");
    var echo = all.get(1);
    assertThat(echo.functionArn()).isEqualTo(ARN + "echo");
    assertThat(echo.handler()).isEqualTo("dev.protomolt.lambda.echo::handleRequest");
    assertThat(echo.runtimeAsString()).isEqualTo("java21");
    assertThat(echo.timeout()).isEqualTo(30);
    assertThat(echo.memorySize()).isEqualTo(1024);
    assertThat(echo.role()).isEqualTo("arn:aws:iam::000000000000:role/pm-dev-echoRole");
    assertThat(echo.environment().variables())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("PROTOMOLT_STORE_BUCKET", "protomolt-store", "PROTOMOLT_PREFIX", "pm-dev"));
  }

  @Test
  void getFunctionConfigurationByNameArnAndQualifier() {
    assertThat(lambda.getFunctionConfiguration(b -> b.functionName("echo")).version())
        .isEqualTo("$LATEST");
    GetFunctionConfigurationResponse byArn =
        lambda.getFunctionConfiguration(b -> b.functionName(ARN + "echo:live"));
    assertThat(byArn.functionArn()).isEqualTo(ARN + "echo:live");
    assertThat(byArn.version()).isEqualTo("7");
    assertThat(
            lambda
                .getFunctionConfiguration(b -> b.functionName("echo").qualifier("live"))
                .version())
        .isEqualTo("7");
    assertThat(lambda.getFunction(b -> b.functionName("echo")).configuration().description())
        .isEqualTo("the echo function");
    assertThatThrownBy(() -> lambda.getFunctionConfiguration(b -> b.functionName("missing")))
        .isInstanceOf(ResourceNotFoundException.class)
        .hasMessageContaining("Function not found");
    assertThatThrownBy(
            () -> lambda.getFunctionConfiguration(b -> b.functionName("echo").qualifier("nope")))
        .isInstanceOf(ResourceNotFoundException.class)
        .hasMessageContaining(ARN + "echo:nope");
  }

  @Test
  void invokeReturnsThePayloadOrTheFunctionErrorAsLambdaDoes() throws Exception {
    InvokeResponse ok =
        lambda.invoke(
            b ->
                b.functionName("echo")
                    .qualifier("live")
                    .logType(LogType.TAIL)
                    .payload(SdkBytes.fromUtf8String("{\"doc\":\"d-1\"}")));
    assertThat(ok.statusCode()).isEqualTo(200);
    assertThat(ok.functionError()).isNull();
    assertThat(ok.executedVersion()).isEqualTo("7");
    assertThat(ok.logResult()).isNotBlank();
    assertThat(JSON.readTree(ok.payload().asUtf8String()).get("doc").asText()).isEqualTo("d-1");

    InvokeResponse failed =
        lambda.invoke(b -> b.functionName("fails").payload(SdkBytes.fromUtf8String("{}")));
    assertThat(failed.statusCode()).isEqualTo(200);
    assertThat(failed.functionError()).isEqualTo("Unhandled");
    JsonNode error = JSON.readTree(failed.payload().asUtf8String());
    assertThat(error.get("errorType").asText()).isEqualTo("java.lang.IllegalStateException");
    assertThat(error.get("errorMessage").asText()).isEqualTo("no such document");

    assertThatThrownBy(
            () -> lambda.invoke(b -> b.functionName("echo").payload(SdkBytes.fromUtf8String("{"))))
        .isInstanceOf(InvalidRequestContentException.class)
        .hasMessageContaining("Could not parse request body into json");
    assertThatThrownBy(() -> lambda.invoke(b -> b.functionName("missing")))
        .isInstanceOf(ResourceNotFoundException.class);
  }

  @Test
  void eventInvocationsAreAcceptedAndRunAfterTheCallReturns() throws Exception {
    InvokeResponse accepted =
        lambda.invoke(
            b ->
                b.functionName("async")
                    .invocationType(InvocationType.EVENT)
                    .payload(SdkBytes.fromUtf8String("{\"n\":1}")));
    assertThat(accepted.statusCode()).isEqualTo(202);
    String delivered = ASYNC.poll(60, TimeUnit.SECONDS);
    assertThat(delivered).isNotNull();
    assertThat(JSON.readTree(delivered).get("n").asInt()).isEqualTo(1);

    InvokeResponse dryRun =
        lambda.invoke(b -> b.functionName("async").invocationType(InvocationType.DRY_RUN));
    assertThat(dryRun.statusCode()).isEqualTo(204);
  }

  @Test
  void aTakenPortAndInvalidConfigurationsAreRefusedNamingTheField() {
    int taken = server.endpoint().getPort();
    assertThatThrownBy(() -> LambdaApiServer.start(taken, new FunctionRegistry()))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("Lambda API port " + taken + " is already in use");
    assertThatThrownBy(
            () ->
                new FunctionConfiguration(
                    "bad name",
                    ARN + "bad name",
                    "h",
                    "java21",
                    3,
                    128,
                    Map.of(),
                    "r",
                    "",
                    Map.of()))
        .hasMessageContaining("name: 'bad name' must be 1-64 letters");
    assertThatThrownBy(
            () ->
                new FunctionConfiguration(
                    "f", ARN + "g", "h", "java21", 3, 128, Map.of(), "r", "", Map.of()))
        .hasMessageContaining("arn: '" + ARN + "g' must be the unqualified ARN of function f");
    assertThatThrownBy(
            () ->
                new FunctionConfiguration(
                    "f", ARN + "f", "h", "java21", 901, 128, Map.of(), "r", "", Map.of()))
        .hasMessageContaining("timeoutSeconds: 901 must be 1-900");
    assertThatThrownBy(
            () ->
                new FunctionConfiguration(
                    "f", ARN + "f", "h", "java21", 3, 64, Map.of(), "r", "", Map.of()))
        .hasMessageContaining("memorySizeMb: 64 must be 128-10240");
    assertThatThrownBy(() -> lambda.listFunctions(b -> b.maxItems(0)))
        .isInstanceOf(InvalidParameterValueException.class)
        .hasMessageContaining("MaxItems: '0' must be an integer from 1 to 10000");
  }
}
