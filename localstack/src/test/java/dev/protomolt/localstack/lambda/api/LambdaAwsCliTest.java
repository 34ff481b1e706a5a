package dev.protomolt.localstack.lambda.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.protomolt.localstack.lambda.LocalLambdaRunner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code aws lambda list-functions} and {@code aws lambda invoke} against the local Lambda API.
 * Skipped, with a message saying so, where no {@code aws} command is installed, except under
 * {@code CI=true}, where a missing CLI fails the test.
 */
class LambdaAwsCliTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static LambdaApiServer server;
  private static String aws;

  @TempDir static Path work;

  @BeforeAll
  static void start() throws Exception {
    aws = findAws();
    if (aws == null && "true".equals(System.getenv("CI"))) {
      throw new IllegalStateException("CI=true but no 'aws' command is on PATH (install awscli)");
    }
    Assumptions.assumeTrue(
        aws != null,
        "SKIPPED: no 'aws' command on PATH (install Debian's awscli to run the AWS CLI test)");
    LocalLambdaRunner runner = new LocalLambdaRunner("us-east-1", "000000000000");
    runner.register(
        "greet",
        (event, context) ->
            "{\"greeting\":\"hi " + JSON.readTree(event).get("who").asText() + "\"}");
    FunctionRegistry registry = new FunctionRegistry();
    registry.register(
        new FunctionConfiguration(
            "greet",
            "arn:aws:lambda:us-east-1:000000000000:function:greet",
            "dev.protomolt.Greet::handleRequest",
            "java21",
            10,
            512,
            Map.of("PROTOMOLT_PREFIX", "pm-local"),
            "arn:aws:iam::000000000000:role/greet",
            "",
            Map.of()),
        payload -> runner.invoke("greet", payload));
    server = LambdaApiServer.start(0, registry);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  private static String findAws() {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      Path candidate = Path.of(dir, "aws");
      if (Files.isExecutable(candidate)) {
        return candidate.toString();
      }
    }
    Path pyenv = Path.of(System.getProperty("user.home"), ".pyenv", "shims", "aws");
    return Files.isExecutable(pyenv) ? pyenv.toString() : null;
  }

  private static String cli(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(aws, "lambda"));
    command.addAll(List.of(args));
    command.addAll(
        List.of(
            "--endpoint-url",
            server.endpoint().toString(),
            "--region",
            "us-east-1",
            "--output",
            "json"));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    Map<String, String> env = builder.environment();
    env.put("AWS_ACCESS_KEY_ID", "local");
    env.put("AWS_SECRET_ACCESS_KEY", "local");
    env.put("AWS_PAGER", "");
    Process process = builder.start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(String.join(" ", args) + " said: " + out).isZero();
    return out;
  }

  @Test
  void listFunctionsShowsTheFunctionWithItsEnvironment() throws Exception {
    JsonNode listed = JSON.readTree(cli("list-functions"));
    JsonNode function = listed.get("Functions").get(0);
    assertThat(listed.get("Functions")).hasSize(1);
    assertThat(function.get("FunctionName").asText()).isEqualTo("greet");
    assertThat(function.get("Environment").get("Variables").get("PROTOMOLT_PREFIX").asText())
        .isEqualTo("pm-local");
    JsonNode configuration =
        JSON.readTree(cli("get-function-configuration", "--function-name", "greet"));
    assertThat(configuration.get("MemorySize").asInt()).isEqualTo(512);
  }

  @Test
  void invokeWritesTheResponsePayloadToTheOutputFile() throws Exception {
    Path in = work.resolve("in.json");
    Path out = work.resolve("out.json");
    Files.writeString(in, "{\"who\":\"cli\"}");
    // fileb:// passes the bytes as they are in both CLI v1 and v2.
    JsonNode status =
        JSON.readTree(
            cli(
                "invoke",
                "--function-name",
                "greet",
                "--payload",
                "fileb://" + in,
                out.toString()));
    assertThat(status.get("StatusCode").asInt()).isEqualTo(200);
    assertThat(JSON.readTree(Files.readString(out)).get("greeting").asText()).isEqualTo("hi cli");
  }
}
