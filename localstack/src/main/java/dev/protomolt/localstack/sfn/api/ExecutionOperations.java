package dev.protomolt.localstack.sfn.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.protomolt.localstack.sfn.Arns;
import dev.protomolt.localstack.sfn.SfnApiException;
import dev.protomolt.localstack.sfn.asl.Json;
import dev.protomolt.localstack.sfn.engine.ExecutionEngine;
import dev.protomolt.localstack.sfn.engine.ExecutionStarter;
import dev.protomolt.localstack.sfn.engine.RedrivePolicy;
import dev.protomolt.localstack.sfn.store.ExecutionStore;
import dev.protomolt.localstack.sfn.store.StateMachineStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Executions, their history and task tokens. */
final class ExecutionOperations {

  private static final Set<String> STATUSES =
      Set.of("RUNNING", "SUCCEEDED", "FAILED", "TIMED_OUT", "ABORTED");

  private final ExecutionStore store;
  private final StateMachineStore machines;
  private final ExecutionEngine engine;
  private final Arns arns;

  ExecutionOperations(
      ExecutionStore store, StateMachineStore machines, ExecutionEngine engine, Arns arns) {
    this.store = store;
    this.machines = machines;
    this.engine = engine;
    this.arns = arns;
  }

  JsonNode start(JsonNode request) {
    ExecutionStarter.Started started =
        engine.start(
            Requests.required(request, "stateMachineArn"),
            Requests.optional(request, "name"),
            Requests.optional(request, "input"),
            null);
    ObjectNode response = Json.object();
    response.put("executionArn", started.executionArn());
    response.put("startDate", Requests.epochSeconds(started.startDate()));
    return response;
  }

  JsonNode redrive(JsonNode request) {
    String arn = arns.canonicalExecution(Requests.required(request, "executionArn"));
    Instant redriven = engine.redrive(arn, Requests.optional(request, "clientToken"));
    ObjectNode response = Json.object();
    response.put("redriveDate", Requests.epochSeconds(redriven));
    return response;
  }

  JsonNode describe(JsonNode request) {
    ExecutionStore.Execution e = execution(Requests.required(request, "executionArn"));
    ObjectNode response = summary(e);
    String refusal = RedrivePolicy.refusal(e, store.lastEventId(e.arn()), engine.now());
    response.put("redriveStatus", refusal == null ? "REDRIVABLE" : "NOT_REDRIVABLE");
    if (refusal != null) {
      response.put("redriveStatusReason", refusal);
    }
    response.put("input", e.input());
    response.putObject("inputDetails").put("included", true);
    if (e.output() != null) {
      response.put("output", e.output());
      response.putObject("outputDetails").put("included", true);
    }
    if (e.error() != null) {
      response.put("error", e.error());
    }
    if (e.cause() != null) {
      response.put("cause", e.cause());
    }
    return response;
  }

  JsonNode list(JsonNode request) {
    String arn = Requests.required(request, "stateMachineArn");
    Arns.Target target = arns.parseStateMachine(arn);
    String machineArn = arns.stateMachine(target.name());
    if (machines.find(machineArn) == null) {
      throw new SfnApiException(
          "StateMachineDoesNotExist", "State Machine Does Not Exist: '" + arn + "'");
    }
    String status = Requests.optional(request, "statusFilter");
    if (status != null && !STATUSES.contains(status)) {
      throw new SfnApiException(
          "ValidationException",
          "statusFilter must be one of " + STATUSES.stream().sorted().toList());
    }
    String redriveFilter = Requests.optional(request, "redriveFilter");
    Boolean redriven =
        switch (redriveFilter) {
          case null -> null;
          case "REDRIVEN" -> true;
          case "NOT_REDRIVEN" -> false;
          default ->
              throw new SfnApiException(
                  "ValidationException", "redriveFilter must be one of [NOT_REDRIVEN, REDRIVEN]");
        };
    String canonical = arns.canonicalStateMachine(arn);
    List<ExecutionStore.Execution> all =
        store.list(
            machineArn,
            target.kind() == Arns.Kind.VERSION ? canonical : null,
            target.kind() == Arns.Kind.ALIAS ? canonical : null,
            status,
            redriven);
    Page page = Page.of(request, all.size());
    ObjectNode response = Json.object();
    ArrayNode items = response.putArray("executions");
    for (ExecutionStore.Execution e : all.subList(page.from(), page.to())) {
      items.add(summary(e));
    }
    page.next().ifPresent(token -> response.put("nextToken", token));
    return response;
  }

  JsonNode stop(JsonNode request) {
    String arn = arns.canonicalExecution(Requests.required(request, "executionArn"));
    Instant stopped =
        engine.stop(arn, Requests.optional(request, "error"), Requests.optional(request, "cause"));
    ObjectNode response = Json.object();
    response.put("stopDate", Requests.epochSeconds(stopped));
    return response;
  }

  JsonNode history(JsonNode request) {
    ExecutionStore.Execution e = execution(Requests.required(request, "executionArn"));
    List<ExecutionStore.HistoryEvent> events = new ArrayList<>(store.history(e.arn()));
    if (request.path("reverseOrder").asBoolean(false)) {
      Collections.reverse(events);
    }
    boolean includeData = request.path("includeExecutionData").asBoolean(true);
    Page page = Page.of(request, events.size());
    ObjectNode response = Json.object();
    ArrayNode items = response.putArray("events");
    for (ExecutionStore.HistoryEvent event : events.subList(page.from(), page.to())) {
      ObjectNode item = items.addObject();
      item.put("timestamp", Requests.epochSeconds(event.at()));
      item.put("type", event.type());
      item.put("id", event.id());
      item.put("previousEventId", event.previousId());
      if (event.details() != null) {
        for (Map.Entry<String, JsonNode> field : Json.parse(event.details()).properties()) {
          JsonNode details = field.getValue();
          if (!includeData && details instanceof ObjectNode object) {
            object.remove(List.of("input", "output", "parameters"));
          }
          item.set(field.getKey(), details);
        }
      }
    }
    page.next().ifPresent(token -> response.put("nextToken", token));
    return response;
  }

  JsonNode sendTaskSuccess(JsonNode request) {
    engine
        .tokens()
        .success(Requests.required(request, "taskToken"), Requests.required(request, "output"));
    return Json.object();
  }

  JsonNode sendTaskFailure(JsonNode request) {
    engine
        .tokens()
        .failure(
            Requests.required(request, "taskToken"),
            Requests.optional(request, "error"),
            Requests.optional(request, "cause"));
    return Json.object();
  }

  JsonNode sendTaskHeartbeat(JsonNode request) {
    engine.tokens().heartbeat(Requests.required(request, "taskToken"));
    return Json.object();
  }

  private ExecutionStore.Execution execution(String arn) {
    ExecutionStore.Execution e = store.find(arns.canonicalExecution(arn));
    if (e == null) {
      throw new SfnApiException("ExecutionDoesNotExist", "Execution Does Not Exist: '" + arn + "'");
    }
    return e;
  }

  private static ObjectNode summary(ExecutionStore.Execution e) {
    ObjectNode item = Json.object();
    item.put("executionArn", e.arn());
    item.put("stateMachineArn", e.stateMachineArn());
    item.put("name", e.name());
    item.put("status", e.status());
    item.put("startDate", Requests.epochSeconds(e.startedAt()));
    if (e.stoppedAt() != null) {
      item.put("stopDate", Requests.epochSeconds(e.stoppedAt()));
    }
    if (e.versionArn() != null) {
      item.put("stateMachineVersionArn", e.versionArn());
    }
    if (e.aliasArn() != null) {
      item.put("stateMachineAliasArn", e.aliasArn());
    }
    item.put("redriveCount", e.redriveCount());
    if (e.redriveDate() != null) {
      item.put("redriveDate", Requests.epochSeconds(e.redriveDate()));
    }
    return item;
  }

  /** Offset pagination: nextToken is the offset of the next page. */
  private record Page(int from, int to, int total) {
    static Page of(JsonNode request, int total) {
      int max = request.path("maxResults").asInt(0);
      int size = max <= 0 ? 100 : Math.min(max, 1000);
      int from = 0;
      String token = Requests.optional(request, "nextToken");
      if (token != null) {
        try {
          from = Integer.parseInt(token);
        } catch (NumberFormatException e) {
          throw new SfnApiException("InvalidToken", "Invalid Token: '" + token + "'");
        }
      }
      from = Math.min(Math.max(from, 0), total);
      return new Page(from, Math.min(total, from + size), total);
    }

    Optional<String> next() {
      return to < total ? Optional.of(Integer.toString(to)) : Optional.empty();
    }
  }
}
