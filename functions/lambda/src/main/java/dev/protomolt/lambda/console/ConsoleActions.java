package dev.protomolt.lambda.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.protomolt.engine.deadletters.DeadLetterAdmin;
import dev.protomolt.engine.deadletters.DeadLetterRefused;
import dev.protomolt.engine.replay.ReplayRefused;
import dev.protomolt.lambda.EventJson;
import dev.protomolt.lambda.handlers.DlqAdminHandler;
import dev.protomolt.lambda.handlers.ReplayStateJson;
import dev.protomolt.repository.replay.ReplayAudit;
import java.io.IOException;
import java.util.Objects;
import java.util.UUID;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionDoesNotExistException;
import software.amazon.awssdk.services.sfn.model.ExecutionNotRedrivableException;

/**
 * The console's three actions on runs, each through the platform's own path and nothing else:
 * a replay is an execution of the replay state machine with the same input an operator would
 * paste into the Step Functions console (its first state refuses what the input's syntax does
 * not), a redrive is Step Functions' RedriveExecution, and a dead letter is reprocessed by the
 * dlq-admin door's {@link DeadLetterAdmin} (its cap and quarantine included).
 *
 * @param sfn the function's Step Functions client
 * @param replayMachineArn {@code protomolt-<env>-replay}
 * @param executionPrefix {@code arn:...:execution:protomolt-<env>-}: a redrive or a replay status
 *     outside it is refused before Step Functions is asked, so the console acts on this
 *     environment's executions only
 * @param audit the replay audit tables, for a replay's progress (pages, counts by verdict)
 * @param deadLetters the dead-letter door's service
 */
public record ConsoleActions(
    SfnClient sfn,
    String replayMachineArn,
    String executionPrefix,
    ReplayAudit audit,
    DeadLetterAdmin deadLetters) {

  public ConsoleActions {
    Objects.requireNonNull(sfn, "sfn");
    Objects.requireNonNull(replayMachineArn, "replayMachineArn");
    Objects.requireNonNull(executionPrefix, "executionPrefix");
    Objects.requireNonNull(audit, "audit");
    Objects.requireNonNull(deadLetters, "deadLetters");
  }

  /**
   * The execution prefix of environment {@code env} in the region and account of {@code
   * replayMachineArn} ({@code arn:<partition>:states:<region>:<account>:stateMachine:<name>}).
   */
  public static String executionPrefix(String replayMachineArn, String env) {
    int at = replayMachineArn.indexOf(":stateMachine:");
    if (at < 0) {
      throw new IllegalArgumentException(
          "replayMachineArn: must be a state machine ARN, got " + replayMachineArn);
    }
    return replayMachineArn.substring(0, at) + ":execution:protomolt-" + env + "-";
  }

  /**
   * The account a replay input selects, once its syntax is checked (a typo is the same 400 {@link
   * #startReplay} gives), so the caller's grants can be held to it before anything starts.
   */
  String replayAccount(JsonNode body) {
    ObjectNode input = body.deepCopy();
    input.put("requested_by", "console");
    try {
      String account = ReplayStateJson.input(input).selectors().getAccountId();
      if (account.isBlank()) {
        throw ConsoleRefusal.badRequest("account_id", "is required");
      }
      return account;
    } catch (ReplayRefused refused) {
      throw ConsoleRefusal.badRequest(refused.field(), rule(refused, refused.field()));
    }
  }

  /**
   * Starts a replay: the body is the replay input, checked here for its syntax so a typo is
   * refused naming its field before anything starts; {@code requested_by} is the signed caller,
   * whatever the body says, so the audit row names who asked.
   */
  JsonNode startReplay(JsonNode body, String principal) {
    ObjectNode input = body.deepCopy();
    input.put("requested_by", principal);
    try {
      ReplayStateJson.input(input);
    } catch (ReplayRefused refused) {
      throw ConsoleRefusal.badRequest(refused.field(), rule(refused, refused.field()));
    }
    String name = "console-" + UUID.randomUUID();
    String arn =
        sfn.startExecution(
                b -> b.stateMachineArn(replayMachineArn).name(name).input(input.toString()))
            .executionArn();
    ObjectNode out = EventJson.reply();
    out.put("executionArn", arn);
    return out;
  }

  /**
   * A replay's progress: the execution's status (and its error when the first state refused the
   * input), the audit row's pages and counts by verdict, and the output's final counts.
   */
  JsonNode replay(String executionArn) {
    String replayExecutions = replayMachineArn.replace(":stateMachine:", ":execution:") + ":";
    if (!executionArn.startsWith(replayExecutions)) {
      throw ConsoleRefusal.badRequest(
          "executionArn", "must be an execution of " + replayMachineArn);
    }
    DescribeExecutionResponse run = describe(executionArn);
    ObjectNode out = EventJson.reply();
    out.put("executionArn", executionArn);
    out.put("status", run.statusAsString());
    if (run.error() != null) {
      out.put("error", run.error());
      out.put("cause", run.cause());
    }
    if (run.output() != null) {
      try {
        out.set("output", EventJson.MAPPER.readTree(run.output()));
      } catch (IOException e) {
        out.put("output", run.output());
      }
    }
    audit
        .run(executionArn)
        .ifPresent(
            state -> {
              ObjectNode progress = out.putObject("progress");
              progress.put("replayId", state.run().replayId());
              progress.put("requestedBy", state.run().requestedBy());
              progress.put("graphId", state.run().graphId());
              progress.put("graphVersion", state.run().graphVersion());
              progress.put("candidatesTotal", state.run().candidatesTotal());
              progress.put("status", state.status());
              progress.put("pages", state.pages());
              progress.put("candidates", state.candidates());
              ObjectNode counts = progress.putObject("counts");
              state.counts().forEach(counts::put);
            });
    return out;
  }

  /** Redrives a failed, aborted or timed-out execution of this environment. */
  JsonNode redrive(JsonNode body) {
    String arn = body.path("executionArn").asText("");
    if (arn.isBlank()) {
      throw ConsoleRefusal.badRequest("executionArn", "is required");
    }
    if (!arn.startsWith(executionPrefix)) {
      throw ConsoleRefusal.badRequest(
          "executionArn", "must be an execution of this environment's state machines");
    }
    try {
      var redriven = sfn.redriveExecution(b -> b.executionArn(arn));
      ObjectNode out = EventJson.reply();
      out.put("executionArn", arn);
      out.put("redriveDate", redriven.redriveDate().toString());
      return out;
    } catch (ExecutionDoesNotExistException e) {
      throw new ConsoleRefusal(404, "executionArn", "names no execution");
    } catch (ExecutionNotRedrivableException e) {
      throw new ConsoleRefusal(
          409, "executionArn", "cannot be redriven: " + e.awsErrorDetails().errorMessage());
    }
  }

  /** One page of a graph's dead letters, as {@code dlq-admin}'s list answers it. */
  JsonNode deadLetters(String accountId, String graphId, String nodeId, String pageToken) {
    try {
      DeadLetterAdmin.ListPage page = deadLetters.list(accountId, graphId, nodeId, pageToken, null);
      ObjectNode out = EventJson.reply();
      ArrayNode letters = out.putArray("deadLetters");
      page.letters().forEach(l -> letters.add(DlqAdminHandler.summary(l)));
      page.nextPageToken().ifPresent(t -> out.put("nextPageToken", t));
      return out;
    } catch (DeadLetterRefused refused) {
      throw ConsoleRefusal.badRequest(refused.field(), rule(refused, refused.field()));
    }
  }

  /** Reprocesses one dead letter through the door's cap and quarantine. */
  JsonNode reprocess(JsonNode body) {
    String account = required(body, "accountId");
    String graph = required(body, "graphId");
    String dlqId = required(body, "dlqId");
    try {
      ObjectNode out = EventJson.reply();
      DlqAdminHandler.outcomes(out, deadLetters.reprocess(account, graph, dlqId, null));
      return out;
    } catch (DeadLetterRefused refused) {
      throw ConsoleRefusal.badRequest(refused.field(), rule(refused, refused.field()));
    }
  }

  private DescribeExecutionResponse describe(String executionArn) {
    try {
      return sfn.describeExecution(b -> b.executionArn(executionArn));
    } catch (ExecutionDoesNotExistException e) {
      throw new ConsoleRefusal(404, "executionArn", "names no execution");
    }
  }

  static String required(JsonNode body, String field) {
    String v = body.path(field).asText("");
    if (v.isBlank()) {
      throw ConsoleRefusal.badRequest(field, "is required");
    }
    return v;
  }

  /** The rule of a refusal whose message is {@code field: rule}. */
  private static String rule(IllegalArgumentException refused, String field) {
    return refused.getMessage().substring(field.length() + 2);
  }
}
