package dev.protomolt.lambda.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.protomolt.core.graph.GraphStore.StoredGraph;
import dev.protomolt.core.orchestration.AdmissionLog.AdmissionRecord;
import dev.protomolt.core.orchestration.InlinePrepare;
import dev.protomolt.engine.admission.PostgresAdmissionLog;
import dev.protomolt.engine.graphs.GraphAdminService;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.repository.v1.GetPipeDocManifestRequest;
import dev.protomolt.proto.repository.v1.GetPipeDocManifestResponse;
import dev.protomolt.repository.PipeDocStore;
import dev.protomolt.repository.PipeDocStoreException;
import dev.protomolt.statemachines.GraphCompileException;
import dev.protomolt.statemachines.StateMachineCompiler;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionDoesNotExistException;
import software.amazon.awssdk.services.sfn.model.GetExecutionHistoryResponse;
import software.amazon.awssdk.services.sfn.model.HistoryEvent;

/**
 * What the run viewer shows about documents, read from where the platform already records it:
 * intake's admission log (which graph version and execution each upload went to), each
 * execution's Step Functions history (status per node) and the document store's ledger (the
 * manifest of every stored state). Nothing is cached: every call reads the current state, which is
 * what polling from the browser wants.
 */
final class DocumentRuns {

  /** Per node, from the states the execution entered and left (states are {@code <label>.<Suffix>}). */
  static final String ADMITTED = "ADMITTED";

  static final String IN_FLIGHT = "IN_FLIGHT";
  static final String DONE = "DONE";
  static final String DEAD_LETTERED = "DEAD_LETTERED";
  static final String REJECTED = "REJECTED";

  private static final ObjectMapper DEFINITIONS = new ObjectMapper();

  private static final JsonFormat.Printer PROTO =
      JsonFormat.printer().omittingInsignificantWhitespace();

  private final ObjectMapper mapper;
  private final PostgresAdmissionLog admissions;
  private final SfnClient sfn;
  private final PipeDocStore store;
  private final GraphAdminService graphs;
  private final Map<String, Map<String, String>> handOns = new ConcurrentHashMap<>();

  DocumentRuns(
      ObjectMapper mapper,
      PostgresAdmissionLog admissions,
      SfnClient sfn,
      PipeDocStore store,
      GraphAdminService graphs) {
    this.mapper = mapper;
    this.admissions = Objects.requireNonNull(admissions, "admissions");
    this.sfn = Objects.requireNonNull(sfn, "sfn");
    this.store = Objects.requireNonNull(store, "store");
    this.graphs = Objects.requireNonNull(graphs, "graphs");
  }

  /**
   * A page of the account's documents (optionally one datasource's): the {@code limit} newest
   * that are older than {@code pageToken} (all when it is null), newest admission last, each
   * admission with its execution's status, disposition and status per node. A document's place is
   * its first admission, so a page token stays valid while new documents arrive; {@code
   * nextPageToken} is set when older documents remain.
   */
  ObjectNode documents(String accountId, String datasourceId, int limit, String pageToken) {
    PageKey before = pageToken == null ? null : PageKey.parse(pageToken);
    Map<String, List<AdmissionRecord>> byDoc = new LinkedHashMap<>();
    for (AdmissionRecord r : admissions.forAccount(accountId)) {
      if (datasourceId.isEmpty() || datasourceId.equals(r.datasourceId())) {
        byDoc.computeIfAbsent(r.docId(), k -> new ArrayList<>()).add(r);
      }
    }
    List<Map.Entry<String, List<AdmissionRecord>>> older = new ArrayList<>();
    for (Map.Entry<String, List<AdmissionRecord>> doc : byDoc.entrySet()) {
      if (before == null || PageKey.of(doc).compareTo(before) < 0) {
        older.add(doc);
      }
    }
    List<Map.Entry<String, List<AdmissionRecord>>> page =
        older.size() > limit ? older.subList(older.size() - limit, older.size()) : older;
    ArrayNode docs = mapper.createArrayNode();
    for (Map.Entry<String, List<AdmissionRecord>> doc : page) {
      ObjectNode d = docs.addObject();
      d.put("docId", doc.getKey());
      d.put("datasourceId", doc.getValue().get(0).datasourceId());
      ArrayNode runs = d.putArray("admissions");
      for (AdmissionRecord r : doc.getValue()) {
        runs.add(admission(r, false));
      }
    }
    ObjectNode out = mapper.createObjectNode();
    out.put("accountId", accountId);
    out.set("documents", docs);
    if (older.size() > page.size()) {
      out.put("nextPageToken", PageKey.of(page.get(0)).token());
    }
    return out;
  }

  /**
   * Where a document sits in the list: its first admission's time, then its id (the admission
   * log's own order). A page token is the key of the oldest document on the page before.
   */
  record PageKey(Instant firstAdmitted, String docId) implements Comparable<PageKey> {

    static PageKey of(Map.Entry<String, List<AdmissionRecord>> doc) {
      return new PageKey(doc.getValue().get(0).recordedAt(), doc.getKey());
    }

    String token() {
      return Base64.getUrlEncoder()
          .withoutPadding()
          .encodeToString((firstAdmitted + "|" + docId).getBytes(StandardCharsets.UTF_8));
    }

    static PageKey parse(String token) {
      try {
        String text = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
        int bar = text.indexOf('|');
        return new PageKey(Instant.parse(text.substring(0, bar)), text.substring(bar + 1));
      } catch (IllegalArgumentException | DateTimeException | StringIndexOutOfBoundsException e) {
        throw ConsoleRefusal.badRequest(
            "pageToken", "is not a token this API returned as nextPageToken");
      }
    }

    @Override
    public int compareTo(PageKey other) {
      int byTime = firstAdmitted.compareTo(other.firstAdmitted);
      return byTime != 0 ? byTime : docId.compareTo(other.docId);
    }
  }

  /**
   * One document's journey: every admission with its execution's hops (the states entered and
   * left, with times), and the manifest of each stored state: the intake copy and every node's.
   */
  ObjectNode journey(String accountId, String datasourceId, String docId) {
    List<AdmissionRecord> found = admitted(accountId, datasourceId, docId);
    ObjectNode out = mapper.createObjectNode();
    out.put("docId", docId);
    out.put("accountId", accountId);
    out.put("datasourceId", datasourceId);
    ArrayNode runs = out.putArray("admissions");
    ArrayNode manifests = out.putArray("manifests");
    manifest(manifests, ref(docId, datasourceId, accountId, "intake:" + accountId), "intake");
    for (AdmissionRecord r : found) {
      runs.add(admission(r, true));
      // The admission log keeps no cluster; a graph id names one graph across clusters.
      graphs
          .get(r.graphId(), "", r.graphVersion())
          .map(StoredGraph::graph)
          .ifPresent(
              g -> {
                for (GraphNode node : g.getNodesList()) {
                  manifest(
                      manifests,
                      ref(docId, node.getNodeId(), accountId, g.getGraphId()),
                      node.getNodeId());
                }
              });
    }
    return out;
  }

  /**
   * The document's admissions in that account and datasource: the one check that a document is
   * the caller's, so a document of another account reads as absent.
   */
  List<AdmissionRecord> admitted(String accountId, String datasourceId, String docId) {
    List<AdmissionRecord> found = admissions.forDocument(accountId, datasourceId, docId);
    if (found.isEmpty()) {
      throw new ConsoleRefusal(
          404,
          "docId",
          "has no admission for account '" + accountId + "' and datasource '" + datasourceId + "'");
    }
    return found;
  }

  private ObjectNode admission(AdmissionRecord r, boolean withHops) {
    ObjectNode a = mapper.createObjectNode();
    a.put("graphId", r.graphId());
    a.put("graphVersion", r.graphVersion());
    a.put("outcome", r.outcome().name());
    a.put("executionArn", r.executionArn() == null ? "" : r.executionArn());
    a.put("detail", r.detail() == null ? "" : r.detail());
    a.put("admittedAt", r.recordedAt().toString());
    if (r.executionArn() == null || r.executionArn().isBlank()) {
      return a;
    }
    try {
      DescribeExecutionResponse d = sfn.describeExecution(b -> b.executionArn(r.executionArn()));
      a.put("status", d.statusAsString());
      a.put("startedAt", d.startDate().toString());
      if (d.stopDate() != null) {
        a.put("stoppedAt", d.stopDate().toString());
      }
      if (d.output() != null) {
        JsonNode output = readOrText(d.output());
        a.put("disposition", output.path("disposition").asText(""));
        a.put("endNode", output.path("node").asText(""));
      }
      List<HistoryEvent> events = history(r.executionArn());
      a.set(
          "nodes",
          nodes(
              events,
              handOns(r.graphId(), r.graphVersion()),
              a.path("disposition").asText(""),
              a.path("endNode").asText("")));
      if (withHops) {
        ArrayNode hops = a.putArray("hops");
        for (HistoryEvent e : events) {
          String state =
              e.stateEnteredEventDetails() != null
                  ? e.stateEnteredEventDetails().name()
                  : e.stateExitedEventDetails() != null ? e.stateExitedEventDetails().name() : "";
          ObjectNode hop = hops.addObject();
          hop.put("type", e.typeAsString());
          hop.put("state", state);
          hop.put("at", e.timestamp().toString());
        }
      }
    } catch (ExecutionDoesNotExistException e) {
      a.put("status", "UNKNOWN");
      a.put("detail", "the execution is no longer in Step Functions' history");
    }
    return a;
  }

  private List<HistoryEvent> history(String executionArn) {
    List<HistoryEvent> events = new ArrayList<>();
    String token = null;
    do {
      String page = token;
      GetExecutionHistoryResponse r =
          sfn.getExecutionHistory(
              b -> b.executionArn(executionArn).includeExecutionData(false).nextToken(page));
      events.addAll(r.events());
      token = r.nextToken();
    } while (token != null && !token.isEmpty());
    return events;
  }

  /**
   * The Complete states of a graph version that hand the next node's work on (decision 1842), each
   * with the label of that node, read from the version's compiled definition: such a state waits
   * on the next node's module, which has no Work state of its own on the way. A version's graph
   * never changes, so its answer is kept; a version no longer stored has none.
   */
  Map<String, String> handOns(String graphId, long version) {
    return handOns.computeIfAbsent(
        graphId + "@" + version,
        key ->
            graphs.versions(graphId).stream()
                .filter(g -> g.graph().getVersion() == version)
                .findFirst()
                .map(g -> compiledHandOns(g.graph()))
                .orElse(Map.of()));
  }

  private Map<String, String> compiledHandOns(PipelineGraph graph) {
    String definition;
    try {
      definition = StateMachineCompiler.compile(graph).compactDefinition();
    } catch (GraphCompileException e) {
      // Stored by an older platform and refused by this compiler: it was deployed before 1842.
      return Map.of();
    }
    return handOnsIn(definition);
  }

  /**
   * The Complete states of a compiled definition that always hand on, with the node each hands
   * to.
   */
  static Map<String, String> handOnsIn(String definition) {
    Map<String, String> out = new LinkedHashMap<>();
    try {
      DEFINITIONS
          .readTree(definition)
          .path("States")
          .properties()
          .forEach(
              state -> {
                JsonNode s = state.getValue();
                String next = s.path("Next").asText();
                // Only a Complete that goes straight on (1842) always hands on; one with a
                // routing choice after it (1843) may answer instead, and its history cannot tell.
                if (s.path("Parameters").path("Payload").has(InlinePrepare.DISPATCH_NEXT_FIELD)
                    && next.endsWith(".Complete")) {
                  out.put(state.getKey(), label(next));
                }
              });
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("a compiled definition did not parse as JSON", e);
    }
    return Map.copyOf(out);
  }

  /**
   * Status per node label: ADMITTED once its first state was entered, IN_FLIGHT while its Work
   * state is entered and not left (or the Complete before it that hands its work on, {@code
   * handOns}), DONE once its Complete state was left, DEAD_LETTERED when its DeadLettered state
   * was entered, and the execution's own disposition on the node it ended at.
   */
  static ObjectNode nodes(
      List<HistoryEvent> events, Map<String, String> handOns, String disposition, String endNode) {
    Map<String, String> status = new LinkedHashMap<>();
    for (HistoryEvent e : events) {
      if (e.stateEnteredEventDetails() != null) {
        String name = e.stateEnteredEventDetails().name();
        if (name.indexOf('.') < 0) {
          // The machine's own states (its Start choice) belong to no node.
          continue;
        }
        String label = label(name);
        if (handOns.containsKey(name)) {
          status.putIfAbsent(label, ADMITTED);
          status.put(handOns.get(name), IN_FLIGHT);
        } else if (name.endsWith(".DeadLettered")) {
          status.put(label, DEAD_LETTERED);
        } else if (name.endsWith(".Work")) {
          status.put(label, IN_FLIGHT);
        } else {
          status.putIfAbsent(label, ADMITTED);
        }
      } else if (e.stateExitedEventDetails() != null) {
        String name = e.stateExitedEventDetails().name();
        if (name.endsWith(".Complete")) {
          status.put(label(name), DONE);
        }
      }
    }
    if (!endNode.isEmpty() && !disposition.isEmpty()) {
      status.put(endNode, disposition);
    }
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    status.forEach(out::put);
    return out;
  }

  static String label(String stateName) {
    int dot = stateName.lastIndexOf('.');
    return dot > 0 ? stateName.substring(0, dot) : stateName;
  }

  private void manifest(ArrayNode into, DocumentReference ref, String at) {
    GetPipeDocManifestResponse found;
    try {
      found = store.getManifest(GetPipeDocManifestRequest.newBuilder().setDocumentRef(ref).build());
    } catch (PipeDocStoreException.DocumentNotFound e) {
      return;
    }
    ObjectNode m = into.addObject();
    m.put("at", at);
    m.put("graphId", ref.getGraphId());
    m.put("status", found.getStatus().name());
    m.put("keep", found.getKeep());
    try {
      m.set("manifest", mapper.readTree(PROTO.print(found.getManifest())));
    } catch (InvalidProtocolBufferException
        | com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("a stored manifest did not print as JSON", e);
    }
  }

  private static DocumentReference ref(String docId, String address, String account, String graph) {
    return DocumentReference.newBuilder()
        .setDocId(docId)
        .setGraphAddressId(address)
        .setAccountId(account)
        .setGraphId(graph)
        .build();
  }

  private JsonNode readOrText(String text) {
    try {
      return mapper.readTree(text);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      return mapper.getNodeFactory().textNode(text);
    }
  }
}
