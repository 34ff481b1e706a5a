package dev.protomolt.localstack.sfn;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.protomolt.localstack.sfn.asl.Json;
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

/**
 * The AWS CLI works against the local runtime unchanged ({@code aws stepfunctions ...
 * --endpoint-url}). Skipped, with a message saying so, where no {@code aws} command is installed;
 * CI installs Debian's awscli.
 */
class AwsCliTest {

  private static SfnFixture sfn;
  private static String aws;

  @BeforeAll
  static void start() {
    aws = findAws();
    Assumptions.assumeTrue(
        aws != null,
        "SKIPPED: no 'aws' command on PATH (install Debian's awscli to run the AWS CLI test)");
    sfn = SfnFixture.start();
  }

  @AfterAll
  static void stop() {
    if (sfn != null) {
      sfn.close();
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

  private static JsonNode cli(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(aws, "stepfunctions"));
    command.addAll(List.of(args));
    command.addAll(
        List.of(
            "--endpoint-url",
            sfn.runtime.endpoint().toString(),
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
    return out.isBlank() ? Json.object() : Json.parse(out);
  }

  @Test
  void createStartDescribeAndHistoryThroughTheCli() throws Exception {
    JsonNode created =
        cli(
            "create-state-machine",
            "--name",
            "cli-demo",
            "--role-arn",
            "arn:aws:iam::000000000000:role/sfn",
            "--definition",
            "{\"StartAt\":\"P\",\"States\":{\"P\":{\"Type\":\"Pass\",\"Parameters\":{\"greeting.$\":\"States.Format('hi"
                + " {}', $.who)\"},\"End\":true}}}");
    String machine = created.get("stateMachineArn").asText();
    assertThat(machine).isEqualTo("arn:aws:states:us-east-1:000000000000:stateMachine:cli-demo");

    JsonNode started =
        cli(
            "start-execution",
            "--state-machine-arn",
            machine,
            "--name",
            "run-1",
            "--input",
            "{\"who\":\"cli\"}");
    String execution = started.get("executionArn").asText();
    sfn.awaitClosed(execution);

    JsonNode described = cli("describe-execution", "--execution-arn", execution);
    assertThat(described.get("status").asText()).isEqualTo("SUCCEEDED");
    assertThat(Json.parse(described.get("output").asText()).get("greeting").asText())
        .isEqualTo("hi cli");
    JsonNode history = cli("get-execution-history", "--execution-arn", execution);
    assertThat(history.get("events").get(0).get("type").asText()).isEqualTo("ExecutionStarted");
    JsonNode listed = cli("list-executions", "--state-machine-arn", machine);
    assertThat(listed.get("executions").get(0).get("name").asText()).isEqualTo("run-1");
  }
}
