package dev.protomolt.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.InvokeResponse;
import software.amazon.awssdk.services.lambda.model.LambdaException;

/**
 * {@code protomolt dlq list|show|reprocess}: a graph's dead letters through the {@code dlq-admin}
 * function, called with the Lambda Invoke API as an operator would call it in AWS (the local
 * cloud serves that API, decision 1584). A refusal comes back as the function's error, whose
 * message names the request field; it is printed with the flag that field came from.
 */
@Command(
    name = "dlq",
    mixinStandardHelpOptions = true,
    description = "List, show and reprocess a graph's dead letters on the running platform.",
    subcommands = {DlqCommand.List.class, DlqCommand.Show.class, DlqCommand.Reprocess.class})
final class DlqCommand implements Runnable {

  static final ObjectMapper JSON = new ObjectMapper();

  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** What every subcommand shares: the account, the graph, and the one Invoke call. */
  abstract static class DlqCall implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Mixin DataOption data;

    @Option(names = "--account", required = true, paramLabel = "A")
    String account;

    @Option(names = "--graph", required = true, paramLabel = "G")
    String graph;

    @Option(
        names = "--function",
        defaultValue = LocalPlatform.DLQ_ADMIN,
        paramLabel = "NAME",
        description =
            "The dead-letter function, protomolt-<env>-dlq-admin (default: ${DEFAULT-VALUE}).")
    String function;

    @Override
    public final Integer call() {
      ObjectNode request = JSON.createObjectNode();
      request.put("accountId", account);
      request.put("graphId", graph);
      fill(request);
      JsonNode reply = invoke(request);
      PrintWriter out = spec.commandLine().getOut();
      print(reply, out);
      out.flush();
      return 0;
    }

    abstract void fill(ObjectNode request);

    abstract void print(JsonNode reply, PrintWriter out);

    private JsonNode invoke(ObjectNode request) {
      var settings = data.settings();
      try (LambdaClient lambda =
          LambdaClient.builder()
              .endpointOverride(URI.create("http://127.0.0.1:" + settings.lambdaPort()))
              .region(Region.of(settings.region()))
              .credentialsProvider(
                  StaticCredentialsProvider.create(
                      AwsBasicCredentials.create(
                          settings.accessKeyId(), settings.secretAccessKey())))
              .httpClient(UrlConnectionHttpClient.create())
              .build()) {
        InvokeResponse response =
            lambda.invoke(
                b -> b.functionName(function).payload(SdkBytes.fromUtf8String(request.toString())));
        JsonNode body = JSON.readTree(response.payload().asUtf8String());
        if (response.functionError() != null) {
          throw CommandFailure.refused(flags(body.path("errorMessage").asText("")));
        }
        return body;
      } catch (LambdaException e) {
        throw new CommandFailure(
            CommandFailure.UNREACHABLE,
            "the dead-letter function '"
                + function
                + "' did not answer ("
                + e.awsErrorDetails().errorMessage()
                + ") — is the platform up (`protomolt up --data "
                + data.data
                + "`)?");
      } catch (IOException e) {
        throw new IllegalStateException("the dead-letter function answered no JSON", e);
      } catch (software.amazon.awssdk.core.exception.SdkClientException e) {
        throw new CommandFailure(
            CommandFailure.UNREACHABLE,
            "no local Lambda API on port "
                + settings.lambdaPort()
                + " ("
                + e.getMessage()
                + ") — start the platform with `protomolt up --data "
                + data.data
                + "`");
      }
    }

    /** The function names request fields; the user typed flags. */
    static String flags(String message) {
      String m =
          message.startsWith("dlq-admin: ") ? message.substring("dlq-admin: ".length()) : message;
      for (String[] pair :
          new String[][] {
            {"accountId", "--account"},
            {"graphId", "--graph"},
            {"nodeId", "--node"},
            {"dlqId", "--dlq-id"},
            {"pageToken", "--page-token"},
            {"limit", "--limit"}
          }) {
        if (m.startsWith(pair[0])) {
          return pair[1] + m.substring(pair[0].length());
        }
      }
      return m;
    }
  }

  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "One page of the graph's dead letters, oldest first per topic.")
  static final class List extends DlqCall {

    @Option(names = "--node", paramLabel = "N", description = "Only this node's dead letters.")
    String node;

    @Option(names = "--page-token", paramLabel = "T", description = "The page a list printed.")
    String pageToken;

    @Option(names = "--limit", paramLabel = "N", description = "Letters per page (default 50).")
    Integer limit;

    @Override
    void fill(ObjectNode request) {
      request.put("action", "list");
      if (node != null) {
        request.put("nodeId", node);
      }
      if (pageToken != null) {
        request.put("pageToken", pageToken);
      }
      if (limit != null) {
        request.put("limit", limit);
      }
    }

    @Override
    void print(JsonNode reply, PrintWriter out) {
      for (JsonNode l : reply.path("deadLetters")) {
        out.printf(
            "%s node=%s doc=%s stream=%s error=%s reprocessed=%d failed=%s%s%n    %s%n",
            l.path("dlqId").asText(),
            l.path("nodeId").asText(),
            l.path("docId").asText(),
            l.path("streamId").asText(),
            l.path("errorCode").asText(),
            l.path("reprocessCount").asInt(),
            l.path("failedAt").asText(),
            l.has("quarantined") ? " QUARANTINED: " + l.path("quarantined").asText() : "",
            l.path("reason").asText());
      }
      out.printf("%d dead letters%n", reply.path("deadLetters").size());
      if (reply.hasNonNull("nextPageToken")) {
        out.printf("more: --page-token %s%n", reply.path("nextPageToken").asText());
      }
    }
  }

  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = "One dead letter with its replay coordinates, as JSON.")
  static final class Show extends DlqCall {

    @Option(names = "--dlq-id", required = true, paramLabel = "ID")
    String dlqId;

    @Override
    void fill(ObjectNode request) {
      request.put("action", "show");
      request.put("dlqId", dlqId);
    }

    @Override
    void print(JsonNode reply, PrintWriter out) {
      try {
        out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(reply));
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  @Command(
      name = "reprocess",
      mixinStandardHelpOptions = true,
      description =
          "Re-drive a dead letter (or --all of the graph's, or of --node) from its replay"
              + " coordinates; at its node's cap it is quarantined instead.")
  static final class Reprocess extends DlqCall {

    @Option(names = "--dlq-id", paramLabel = "ID")
    String dlqId;

    @Option(names = "--all", description = "Every letter of the graph (or of --node).")
    boolean all;

    @Option(names = "--node", paramLabel = "N")
    String node;

    @Override
    void fill(ObjectNode request) {
      if ((dlqId == null) == !all) {
        throw CommandFailure.refused("--dlq-id: give one dead letter's id, or --all, not both");
      }
      request.put("action", "reprocess");
      if (dlqId != null) {
        request.put("dlqId", dlqId);
      }
      if (all) {
        request.put("all", true);
      }
      if (node != null) {
        request.put("nodeId", node);
      }
    }

    @Override
    void print(JsonNode reply, PrintWriter out) {
      for (JsonNode o : reply.path("outcomes")) {
        out.printf(
            "%s %s %s%n",
            o.path("dlqId").asText(), o.path("verdict").asText(), o.path("detail").asText());
      }
      out.printf("%d dead letters handled%n", reply.path("outcomes").size());
    }
  }
}
