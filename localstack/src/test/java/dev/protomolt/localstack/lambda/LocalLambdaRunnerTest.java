package dev.protomolt.localstack.lambda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class LocalLambdaRunnerTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private final LocalLambdaRunner runner = new LocalLambdaRunner("eu-west-1", "000000000000");

  /** Thrown by a handler to show the error name is the class name, as in Lambda's Java runtime. */
  static final class ModuleRejected extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ModuleRejected(String message) {
      super(message);
    }
  }

  @Test
  void returnsTheHandlersJsonAndPassesItsContext() {
    runner.register(
        "echo",
        (event, context) ->
            "{\"got\":" + event + ",\"arn\":\"" + context.invokedFunctionArn() + "\"}");

    LambdaResult result = runner.invoke("echo", "{\"a\":1}");

    assertThat(result)
        .isEqualTo(
            new LambdaResult.Success(
                "{\"got\":{\"a\":1},\"arn\":\"arn:aws:lambda:eu-west-1:000000000000:function:echo\"}"));
  }

  @Test
  void acceptsAFunctionArnAsTheInvokeApiDoes() {
    runner.register("prepare", (event, context) -> "\"ok\"");

    assertThat(runner.invoke("arn:aws:lambda:eu-west-1:000000000000:function:prepare:live", "{}"))
        .isEqualTo(new LambdaResult.Success("\"ok\""));
  }

  @Test
  void reportsAThrowingHandlerWithErrorTypeAndErrorMessage() throws Exception {
    runner.register(
        "dispatch",
        (event, context) -> {
          throw new ModuleRejected("module said no");
        });

    LambdaResult result = runner.invoke("dispatch", "{}");

    assertThat(result).isInstanceOf(LambdaResult.Failure.class);
    LambdaResult.Failure failure = (LambdaResult.Failure) result;
    assertThat(failure.errorType()).isEqualTo(ModuleRejected.class.getName());
    JsonNode error = JSON.readTree(failure.toJson());
    assertThat(error.get("errorType").asText()).isEqualTo(ModuleRejected.class.getName());
    assertThat(error.get("errorMessage").asText()).isEqualTo("module said no");
    assertThat(error.get("stackTrace").isArray()).isTrue();
    assertThat(error.get("stackTrace").get(0).asText()).contains("LocalLambdaRunnerTest");
  }

  @Test
  void aNullResponseIsTheJsonNull() {
    runner.register("quiet", (event, context) -> null);

    assertThat(runner.invoke("quiet", "{}")).isEqualTo(new LambdaResult.Success("null"));
  }

  @Test
  void anUnknownFunctionIsResourceNotFound() {
    assertThatThrownBy(() -> runner.invoke("missing", "{}"))
        .isInstanceOf(LambdaInvocationException.class)
        .hasMessage("Function not found: arn:aws:lambda:eu-west-1:000000000000:function:missing")
        .extracting(e -> ((LambdaInvocationException) e).errorCode())
        .isEqualTo("ResourceNotFoundException");
  }

  @Test
  void aPayloadThatIsNotJsonIsRefusedBeforeTheHandlerRuns() {
    runner.register(
        "strict",
        (event, context) -> {
          throw new AssertionError("must not run");
        });

    assertThatThrownBy(() -> runner.invoke("strict", "{not json"))
        .isInstanceOf(LambdaInvocationException.class)
        .hasMessageStartingWith("Could not parse request body into json")
        .extracting(e -> ((LambdaInvocationException) e).errorCode())
        .isEqualTo("InvalidRequestContentException");
  }

  @Test
  void aFunctionNameLambdaWouldRejectIsRefusedWithTheRule() {
    assertThatThrownBy(() -> runner.register("has space", (event, context) -> "{}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("functionName")
        .hasMessageContaining("1-64 letters, digits, hyphens or underscores");
  }
}
