package dev.protomolt.lambda.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;
import dev.protomolt.core.doclog.DocumentLog;
import dev.protomolt.core.graph.GraphAdminException;
import dev.protomolt.core.graph.GraphStore.StoredGraph;
import dev.protomolt.core.tracing.TraceSource;
import dev.protomolt.engine.admission.PostgresAdmissionLog;
import dev.protomolt.engine.graphs.DraftService;
import dev.protomolt.engine.graphs.GraphAdminService;
import dev.protomolt.lambda.EventHandler;
import dev.protomolt.lambda.EventJson;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.ValidationMode;
import dev.protomolt.proto.config.v1.ValidationResult;
import dev.protomolt.repository.PipeDocStore;
import dev.protomolt.repository.PipeDocStoreException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.function.Supplier;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * {@code console-api}: the console's JSON API behind an API Gateway HTTP API (payload format
 * 2.0), one route per call, every message in the protobuf JSON mapping. Reads go to the graph
 * store, the admission log, Step Functions and the document store's ledger; the write paths are
 * graph admin's own service (validate, create and activate, activate an earlier version) and the
 * draft service. A refused
 * request answers {@code {"field":...,"rule":...}} with a 4xx status and changes nothing.
 *
 * <ul>
 *   <li>{@code GET /api/graphs?clusterId=}: every graph's latest version and whether it is active;
 *   <li>{@code GET /api/graphs/{graphId}/versions}: every stored version, active flagged, with
 *       its running pinned executions;
 *   <li>{@code GET /api/graphs/{graphId}/diff?from=&to=}: what changed between two versions;
 *   <li>{@code POST /api/graphs/{graphId}/versions/{version}/activate} {clusterId,
 *       expectedActiveVersion?}: rollback, activating a stored version;
 *   <li>{@code POST /api/validate} {graph, mode?}: the ValidationResult (DRAFT mode by default);
 *   <li>{@code POST /api/deploy} {graph}: PRODUCTION preflight, then create and activate;
 *   <li>{@code GET|PUT /api/drafts/{clusterId}/{graphId}}: the caller's draft;
 *   <li>{@code GET /api/modules}: the registered module ids, for the designer's palette;
 *   <li>{@code GET /api/documents?accountId=&datasourceId=&limit=&pageToken=}: a page of
 *       documents, newest first, with status per node and the next page's token;
 *   <li>{@code GET /api/documents/{docId}?accountId=&datasourceId=}: one document's journey;
 *   <li>{@code GET /api/documents/{docId}/trace?accountId=&datasourceId=}: the newest trace
 *       naming the document as a tree (decision 1830);
 *   <li>{@code GET /api/documents/{docId}/logs?accountId=&datasourceId=&limit=&pageToken=}: a
 *       page of the module log lines of the document's hops, grouped by hop (decision 1754);
 *   <li>{@code POST /api/replays} {replay input}: starts the replay state machine;
 *   <li>{@code GET /api/replays?executionArn=}: a replay's status, pages and counts;
 *   <li>{@code POST /api/redrives} {executionArn}: redrives a failed execution;
 *   <li>{@code GET /api/dead-letters?accountId=&graphId=&nodeId=&pageToken=}: a graph's dead
 *       letters;
 *   <li>{@code POST /api/dead-letters/reprocess} {accountId, graphId, dlqId}: reprocesses one.
 * </ul>
 */
public final class ConsoleApiHandler implements EventHandler {

  public static final String NAME = "console-api";

  /** Documents one list call returns at most; older ones are on the next pages. */
  static final int DOCUMENT_LIMIT = 200;

  /** Documents one list call returns when it names no {@code limit}. */
  static final int DOCUMENT_PAGE = 50;

  private static final JsonFormat.Parser PARSER = JsonFormat.parser();
  private static final JsonFormat.Printer PRINTER =
      JsonFormat.printer().omittingInsignificantWhitespace();

  private final EventJson json = new EventJson(NAME);
  private final OperatorCheck operators;
  private final GraphAdminService admin;
  private final DraftService drafts;
  private final DocumentRuns runs;
  private final Supplier<List<String>> modules;
  private final ConsoleActions actions;
  private final GraphVersions versions;
  private final DocumentTraces traces;
  private final DocumentLogs logs;

  /**
   * @param admin graph admin's service, with activation attached (create and activate deploys)
   * @param drafts the draft service, or null where the deployment has no drafts table: the draft
   *     routes then answer 501 saying so
   * @param modules the registered module ids, read on every palette call
   */
  public ConsoleApiHandler(
      OperatorCheck operators,
      GraphAdminService admin,
      DraftService drafts,
      DocumentRunsSource runs,
      Supplier<List<String>> modules) {
    this(operators, admin, drafts, runs, modules, null);
  }

  /**
   * @param actions replay, redrive and dead-letter reprocessing, or null where the deployment
   *     wires none: those routes then answer 501 saying so
   */
  public ConsoleApiHandler(
      OperatorCheck operators,
      GraphAdminService admin,
      DraftService drafts,
      DocumentRunsSource runs,
      Supplier<List<String>> modules,
      ConsoleActions actions) {
    this.actions = actions;
    this.operators = Objects.requireNonNull(operators, "operators");
    this.admin = Objects.requireNonNull(admin, "admin");
    this.drafts = drafts;
    this.runs =
        new DocumentRuns(EventJson.MAPPER, runs.admissions(), runs.sfn(), runs.store(), admin);
    this.modules = Objects.requireNonNull(modules, "modules");
    this.versions = new GraphVersions(EventJson.MAPPER, admin);
    this.traces = new DocumentTraces(EventJson.MAPPER, runs.traces());
    this.logs = new DocumentLogs(EventJson.MAPPER, runs.logs());
  }

  /**
   * Where the run viewer's reads go: admission log, Step Functions, the document store, the
   * deployment's spans (X-Ray in AWS, the local collector locally), and the document logs in the
   * ledger database (execution transcripts and work-unit logs).
   */
  public record DocumentRunsSource(
      PostgresAdmissionLog admissions,
      SfnClient sfn,
      PipeDocStore store,
      TraceSource traces,
      DocumentLog logs) {}

  @Override
  public void handle(InputStream event, OutputStream reply) throws IOException {
    JsonNode request = json.object(event);
    int status = 200;
    JsonNode body;
    try {
      HttpApiRequest http = HttpApiRequest.of(request);
      String principal = operators.principal(http.requestContext());
      body = route(http, principal);
    } catch (ConsoleRefusal r) {
      status = r.status();
      ObjectNode refused = refusal(r.field(), r.rule());
      r.violations().ifPresent(v -> refused.set("validation", proto(v)));
      body = refused;
    } catch (GraphAdminException e) {
      status =
          switch (e.reason()) {
            case NOT_FOUND -> 404;
            case FAILED_PRECONDITION, ABORTED -> 409;
            case UNAVAILABLE -> 503;
            case INVALID_ARGUMENT -> 400;
          };
      body = refusal("graph", e.getMessage());
    } catch (PipeDocStoreException.InvalidRequest e) {
      status = 400;
      body = refusal(e.field(), e.getMessage());
    }
    ObjectNode out = EventJson.reply();
    out.put("statusCode", status);
    ObjectNode headers = out.putObject("headers");
    headers.put("content-type", "application/json");
    headers.put("cache-control", "no-store");
    out.put("body", EventJson.MAPPER.writeValueAsString(body));
    out.put("isBase64Encoded", false);
    EventJson.write(reply, out);
  }

  private JsonNode route(HttpApiRequest http, String principal) {
    List<String> s = http.segments();
    if (s.isEmpty() || !s.get(0).equals("api")) {
      throw notFound(http);
    }
    String method = http.method();
    String resource = s.size() > 1 ? s.get(1) : "";
    // Each route checks the operator grants once it knows which accounts the request names
    // (after its own 400s, as the gateway's diagnostics shell orders them, decision 1798): routes
    // naming an account need an operator of it, the platform-wide ones an operator of every
    // account (decision 1752).
    return switch (resource) {
      case "graphs" -> {
        platformWide(principal);
        if (s.size() == 6 && s.get(3).equals("versions") && s.get(5).equals("activate")) {
          requireMethod(http, "POST");
          yield versions.rollback(s.get(2), s.get(4), http.json(EventJson.MAPPER));
        }
        requireMethod(http, "GET");
        if (s.size() == 2) {
          yield graphs(http.parameter("clusterId"));
        }
        if (s.size() == 4 && s.get(3).equals("versions")) {
          yield versions.versions(s.get(2));
        }
        if (s.size() == 4 && s.get(3).equals("diff")) {
          yield versions.diff(s.get(2), http.parameter("from"), http.parameter("to"));
        }
        throw notFound(http);
      }
      case "validate" -> {
        requireMethod(http, "POST");
        JsonNode body = http.json(EventJson.MAPPER);
        platformWide(principal);
        yield proto(admin.validate(graph(body), mode(body)));
      }
      case "deploy" -> {
        requireMethod(http, "POST");
        PipelineGraph graph = graph(http.json(EventJson.MAPPER));
        platformWide(principal);
        yield deploy(graph, principal);
      }
      case "drafts" -> {
        if (s.size() != 4) {
          throw notFound(http);
        }
        platformWide(principal);
        yield draft(http, s.get(2), s.get(3), principal, method);
      }
      case "modules" -> {
        requireMethod(http, "GET");
        platformWide(principal);
        ObjectNode out = EventJson.reply();
        ArrayNode ids = out.putArray("modules");
        modules.get().forEach(ids::add);
        yield out;
      }
      case "documents" -> {
        requireMethod(http, "GET");
        String account = http.parameter("accountId");
        if (s.size() == 2) {
          operators.authorize(principal, List.of(account));
          yield runs.documents(
              account,
              http.parameter("datasourceId", ""),
              limit(http.parameter("limit", null)),
              http.parameter("pageToken", null));
        }
        if (s.size() == 3) {
          String datasource = http.parameter("datasourceId");
          operators.authorize(principal, List.of(account));
          yield runs.journey(account, datasource, s.get(2));
        }
        if (s.size() == 4 && s.get(3).equals("trace")) {
          String datasource = http.parameter("datasourceId");
          operators.authorize(principal, List.of(account));
          runs.admitted(account, datasource, s.get(2));
          yield traces.tree(s.get(2));
        }
        if (s.size() == 4 && s.get(3).equals("logs")) {
          String datasource = http.parameter("datasourceId");
          int limit = DocumentLogs.limit(http.parameter("limit", null));
          DocumentLogs.PageStart start =
              DocumentLogs.PageStart.parse(http.parameter("pageToken", null));
          operators.authorize(principal, List.of(account));
          yield logs.page(
              account, s.get(2), runs.admitted(account, datasource, s.get(2)), limit, start);
        }
        throw notFound(http);
      }
      case "replays" -> {
        if (s.size() != 2) {
          throw notFound(http);
        }
        yield switch (method) {
          case "POST" -> {
            JsonNode body = http.json(EventJson.MAPPER);
            operators.authorize(principal, List.of(actions().replayAccount(body)));
            yield actions().startReplay(body, principal);
          }
          case "GET" -> {
            String executionArn = http.parameter("executionArn");
            platformWide(principal);
            yield actions().replay(executionArn);
          }
          default -> throw methodNotAllowed(http, "GET or POST");
        };
      }
      case "redrives" -> {
        requireMethod(http, "POST");
        if (s.size() != 2) {
          throw notFound(http);
        }
        JsonNode body = http.json(EventJson.MAPPER);
        platformWide(principal);
        yield actions().redrive(body);
      }
      case "dead-letters" -> {
        if (s.size() == 2) {
          requireMethod(http, "GET");
          String account = http.parameter("accountId");
          String graphId = http.parameter("graphId");
          operators.authorize(principal, List.of(account));
          yield actions()
              .deadLetters(
                  account,
                  graphId,
                  http.parameter("nodeId", null),
                  http.parameter("pageToken", null));
        }
        if (s.size() == 3 && s.get(2).equals("reprocess")) {
          requireMethod(http, "POST");
          JsonNode body = http.json(EventJson.MAPPER);
          operators.authorize(principal, List.of(ConsoleActions.required(body, "accountId")));
          yield actions().reprocess(body);
        }
        throw notFound(http);
      }
      default -> throw notFound(http);
    };
  }

  /** A route that names no account: an operator of every account only. */
  private void platformWide(String principal) {
    operators.authorize(principal, List.of());
  }

  private ConsoleActions actions() {
    if (actions == null) {
      throw new ConsoleRefusal(
          501,
          "actions",
          "are not wired in this deployment: replay, redrive and dead-letter reprocessing need"
              + " the replay state machine and the dead-letter door");
    }
    return actions;
  }

  private JsonNode graphs(String clusterId) {
    ObjectNode out = EventJson.reply();
    ArrayNode list = out.putArray("graphs");
    for (StoredGraph g : admin.graphs(clusterId)) {
      list.add(stored(g));
    }
    return out;
  }

  /** A page size: {@value #DOCUMENT_PAGE} when absent, 1 to {@value #DOCUMENT_LIMIT} when given. */
  private static int limit(String value) {
    if (value == null) {
      return DOCUMENT_PAGE;
    }
    try {
      int n = Integer.parseInt(value);
      if (n >= 1 && n <= DOCUMENT_LIMIT) {
        return n;
      }
    } catch (NumberFormatException e) {
      // Refused below with the value the caller sent.
    }
    throw ConsoleRefusal.badRequest(
        "limit", "must be a whole number from 1 to " + DOCUMENT_LIMIT + ", was '" + value + "'");
  }

  /**
   * Deploy is one call: a PRODUCTION-mode preflight whose violations come back as a refusal with
   * the violations attached, then create and activate through graph admin.
   */
  private JsonNode deploy(PipelineGraph graph, String principal) {
    ValidationResult preflight = admin.validate(graph, ValidationMode.VALIDATION_MODE_PRODUCTION);
    if (!preflight.getValid()) {
      throw ConsoleRefusal.invalidGraph(preflight);
    }
    StoredGraph stored = admin.createAndActivate(graph, OptionalLong.empty(), principal);
    return stored(stored);
  }

  private JsonNode draft(
      HttpApiRequest http, String clusterId, String graphId, String principal, String method) {
    if (drafts == null) {
      throw new ConsoleRefusal(
          501,
          "drafts",
          "are not stored by this deployment: it has no drafts table wired to the console API");
    }
    String owner = draftOwner(principal);
    switch (method) {
      case "GET" -> {
        return drafts
            .get(clusterId, graphId, owner)
            .<JsonNode>map(ConsoleApiHandler::proto)
            .orElseThrow(
                () ->
                    new ConsoleRefusal(
                        404, "graphId", "has no draft of yours in cluster '" + clusterId + "'"));
      }
      case "PUT" -> {
        JsonNode body = http.json(EventJson.MAPPER);
        long base = json.optionalInteger(body, "", "baseVersion", 1, -1);
        return proto(
            drafts.save(
                clusterId,
                graphId,
                owner,
                graph(body),
                base < 0 ? OptionalLong.empty() : OptionalLong.of(base)));
      }
      default -> throw methodNotAllowed(http, "GET or PUT");
    }
  }

  /**
   * The caller as a draft's owner: a draft key joins its parts with ':', which every IAM ARN
   * contains, so each ':' becomes '|', a character no IAM name or ARN may hold (the mapping is
   * one-to-one, so two callers never share a draft; decision 1771).
   */
  static String draftOwner(String principal) {
    return principal.replace(':', '|');
  }

  private JsonNode stored(StoredGraph g) {
    return versions.stored(g);
  }

  private static PipelineGraph graph(JsonNode body) {
    JsonNode node = body.get("graph");
    if (node == null || !node.isObject()) {
      throw ConsoleRefusal.badRequest("graph", "must be a PipelineGraph in protobuf JSON");
    }
    PipelineGraph.Builder graph = PipelineGraph.newBuilder();
    try {
      PARSER.merge(node.toString(), graph);
    } catch (InvalidProtocolBufferException e) {
      throw ConsoleRefusal.badRequest(
          "graph", "must be a PipelineGraph in protobuf JSON: " + e.getMessage());
    }
    return graph.build();
  }

  private static ValidationMode mode(JsonNode body) {
    String mode = body.path("mode").asText("VALIDATION_MODE_DRAFT");
    try {
      ValidationMode parsed = ValidationMode.valueOf(mode);
      if (parsed == ValidationMode.UNRECOGNIZED
          || parsed == ValidationMode.VALIDATION_MODE_UNSPECIFIED) {
        throw new IllegalArgumentException(mode);
      }
      return parsed;
    } catch (IllegalArgumentException e) {
      throw ConsoleRefusal.badRequest(
          "mode",
          "must be VALIDATION_MODE_DRAFT, VALIDATION_MODE_DESIGN or VALIDATION_MODE_PRODUCTION,"
              + " was '"
              + mode
              + "'");
    }
  }

  static JsonNode proto(Message message) {
    try {
      return EventJson.MAPPER.readTree(PRINTER.print(message));
    } catch (IOException e) {
      throw new IllegalStateException("a message did not print as JSON", e);
    }
  }

  private static ObjectNode refusal(String field, String rule) {
    ObjectNode out = EventJson.reply();
    out.put("field", field);
    out.put("rule", rule);
    return out;
  }

  private static void requireMethod(HttpApiRequest http, String method) {
    if (!http.method().equals(method)) {
      throw methodNotAllowed(http, method);
    }
  }

  private static ConsoleRefusal methodNotAllowed(HttpApiRequest http, String allowed) {
    return new ConsoleRefusal(
        405, "method", "must be " + allowed + " on this route, was " + http.method());
  }

  private static ConsoleRefusal notFound(HttpApiRequest http) {
    return new ConsoleRefusal(
        404, "path", "/" + String.join("/", http.segments()) + " is no console API route");
  }
}
