package dev.protomolt.engine.replay;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.protomolt.core.graph.GraphStore;
import dev.protomolt.core.graph.GraphStore.StoredGraph;
import dev.protomolt.core.orchestration.StateMachineNames;
import dev.protomolt.core.orchestration.StateMachines;
import dev.protomolt.proto.config.v1.GraphNode;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.data.v1.PipeDocPart;
import dev.protomolt.proto.repository.v1.StreamDocumentsForReplayRequest;
import dev.protomolt.repository.PipeDocStoreException;
import dev.protomolt.repository.replay.ReplayAudit;
import dev.protomolt.repository.replay.ReplayQuery;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The replay state machine's first state (decision 1700): refuses an input that cannot run, naming
 * the field and the rule, before anything is started; resolves the graph version once; counts the
 * candidates for the progress total; and records the run in the audit trail (decision 1702).
 */
public final class ReplayValidation {

  /** Executions started per second, at most (Step Functions' own start quota is far lower). */
  public static final int MAX_RATE_PER_SECOND = 1_000;

  /**
   * How long one page may spend pacing its starts: a page is one Lambda invocation, so a slow rate
   * needs a smaller page, not a longer invocation.
   */
  public static final int MAX_PAGE_SECONDS = 30;

  private static final JsonFormat.Printer JSON =
      JsonFormat.printer().omittingInsignificantWhitespace();

  private final ReplayQuery query;
  private final ReplayAudit audit;
  private final GraphStore graphs;
  private final StateMachines machines;
  private final InstantSource clock;

  public ReplayValidation(
      ReplayQuery query,
      ReplayAudit audit,
      GraphStore graphs,
      StateMachines machines,
      InstantSource clock) {
    this.query = Objects.requireNonNull(query, "query");
    this.audit = Objects.requireNonNull(audit, "audit");
    this.graphs = Objects.requireNonNull(graphs, "graphs");
    this.machines = Objects.requireNonNull(machines, "machines");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * @param executionArn the execution validating; it names the run and, without {@code
   *     requested_by}, the requester
   * @throws ReplayRefused naming the input field and the rule; nothing was started or recorded
   */
  public ReplayPlan validate(ReplayInput input, String executionArn) {
    if (input.selectors().getAccountId().isBlank()) {
      throw new ReplayRefused("account_id", "required: the account whose documents replay");
    }
    if (input.pageSize() < 1 || input.pageSize() > ReplayQuery.MAX_PAGE_SIZE) {
      throw new ReplayRefused(
          "page_size",
          "must be between 1 and " + ReplayQuery.MAX_PAGE_SIZE + ", was " + input.pageSize());
    }
    if (input.ratePerSecond() < 0 || input.ratePerSecond() > MAX_RATE_PER_SECOND) {
      throw new ReplayRefused(
          "rate_per_second",
          "must be between 0 (no limit) and "
              + MAX_RATE_PER_SECOND
              + ", was "
              + input.ratePerSecond());
    }
    if (input.ratePerSecond() > 0
        && (long) input.pageSize() > (long) input.ratePerSecond() * MAX_PAGE_SECONDS) {
      throw new ReplayRefused(
          "page_size",
          "at rate_per_second "
              + input.ratePerSecond()
              + " a page of "
              + input.pageSize()
              + " would pace its starts for longer than "
              + MAX_PAGE_SECONDS
              + " s; use a page_size of at most "
              + (long) input.ratePerSecond() * MAX_PAGE_SECONDS);
    }
    StoredGraph target;
    try {
      target = ReplayTargets.resolve(graphs, machines, input.graphId(), input.version());
    } catch (ReplayRefused e) {
      throw e.field().equals("version") ? e.renamed("graph_version") : e;
    }
    StreamDocumentsForReplayRequest selectors = selectors(input, target);
    java.time.Instant validatedAt = clock.instant();
    long total;
    try {
      total = query.count(selectors);
    } catch (PipeDocStoreException.InvalidRequest e) {
      String rule = e.getMessage().substring(e.field().length() + 2);
      throw new ReplayRefused(
          e.field().equals("account_id") ? "account_id" : "selectors." + e.field(), rule);
    }
    long version = target.graph().getVersion();
    String replayId =
        input.replayId().isBlank() ? derivedId(selectors, input, version) : input.replayId();
    String requestedBy = input.requestedBy().isBlank() ? executionArn : input.requestedBy();
    String selectorsJson;
    try {
      selectorsJson = JSON.print(input.selectors());
    } catch (InvalidProtocolBufferException e) {
      throw new ReplayRefused("selectors", "cannot be printed as JSON: " + e.getMessage());
    }
    audit.begin(
        new ReplayAudit.Run(
            executionArn,
            replayId,
            requestedBy,
            selectors.getAccountId(),
            input.graphId(),
            version,
            input.targetNode(),
            input.dryRun(),
            selectorsJson,
            total,
            validatedAt));
    return new ReplayPlan(
        replayId,
        requestedBy,
        executionArn,
        input.graphId(),
        version,
        target.stateMachineVersionArn(),
        input.targetNode(),
        total,
        validatedAt);
  }

  /**
   * The query the pages read: the input's selectors, narrowed to the target node's copies for an
   * interior replay (an intake replay reads intake copies).
   */
  static StreamDocumentsForReplayRequest selectors(ReplayInput input, StoredGraph target) {
    if (input.targetNode().isEmpty()) {
      return input.selectors();
    }
    boolean known =
        target.graph().getNodesList().stream()
            .map(GraphNode::getNodeId)
            .anyMatch(input.targetNode()::equals);
    if (!known) {
      throw new ReplayRefused(
          "target_node",
          "graph '"
              + input.graphId()
              + "' version "
              + target.graph().getVersion()
              + " has no node '"
              + input.targetNode()
              + "'");
    }
    return input.selectors().toBuilder()
        .setGraphId(input.graphId())
        .setGraphAddressId(input.targetNode())
        .addAllRequiredParts(requiredParts(target.graph(), input.targetNode()))
        .build();
  }

  /**
   * The parts the subtree reachable from {@code targetNode} needs, so a copy is replayable when
   * those are present even if others were reclaimed: the union of every reachable module's
   * {@code required_parts}, with BLOBS where one needs blob content. A module that leaves its
   * list empty reads every part, so the union is then empty, which the verdict reads as every part.
   */
  static List<PipeDocPart> requiredParts(PipelineGraph graph, String targetNode) {
    Map<String, GraphNode> nodes = new LinkedHashMap<>();
    graph.getNodesList().forEach(n -> nodes.put(n.getNodeId(), n));
    Set<String> reached = new LinkedHashSet<>();
    Deque<String> todo = new ArrayDeque<>(List.of(targetNode));
    while (!todo.isEmpty()) {
      String at = todo.pop();
      if (reached.add(at)) {
        graph.getEdgesList().stream()
            .filter(e -> e.getFromNodeId().equals(at))
            .forEach(e -> todo.push(e.getToNodeId()));
      }
    }
    Set<PipeDocPart> parts = EnumSet.noneOf(PipeDocPart.class);
    for (String id : reached) {
      GraphNode node = nodes.get(id);
      if (node == null || node.getModuleId().isEmpty()) {
        continue;
      }
      if (node.getCapabilities().getRequiredPartsList().isEmpty()) {
        return List.of();
      }
      parts.addAll(node.getCapabilities().getRequiredPartsList());
      if (node.getCapabilities().getNeedsBlobContent()) {
        parts.add(PipeDocPart.PIPE_DOC_PART_BLOBS);
      }
    }
    return List.copyOf(parts);
  }

  /** A replay without an id is named by what it asks, so the same input converges. */
  private static String derivedId(
      StreamDocumentsForReplayRequest selectors, ReplayInput input, long version) {
    try {
      return StateMachineNames.hashOf(
          JSON.print(selectors), input.graphId(), Long.toString(version), input.targetNode());
    } catch (InvalidProtocolBufferException e) {
      throw new ReplayRefused("selectors", "cannot be printed as JSON: " + e.getMessage());
    }
  }
}
