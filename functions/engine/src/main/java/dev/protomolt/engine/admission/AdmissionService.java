package dev.protomolt.engine.admission;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.protomolt.core.graph.GraphStore;
import dev.protomolt.core.graph.GraphStore.StoredGraph;
import dev.protomolt.core.graph.SubscriptionIds;
import dev.protomolt.core.graph.SubscriptionLookup;
import dev.protomolt.core.graph.validation.TenancyDirectory;
import dev.protomolt.core.orchestration.AdmissionLog;
import dev.protomolt.core.orchestration.AdmissionLog.AdmissionRecord;
import dev.protomolt.core.orchestration.AdmissionLog.Outcome;
import dev.protomolt.core.orchestration.StateMachineNames;
import dev.protomolt.core.orchestration.StateMachines;
import dev.protomolt.core.orchestration.StateMachines.StartOutcome;
import dev.protomolt.proto.config.v1.DatasourceSubscription;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.StreamMetadata;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Admission: starts one execution per graph the intake's datasource feeds, pinned to the version
 * the graph's {@code active} alias points at when the intake is admitted. The alias is resolved
 * once per graph and the version it names is stamped into the stream, so the document runs that
 * version to the end even if another is activated mid-flight. Execution names are deterministic
 * (decision 0801), so a repeated notification converges on the execution it already started.
 */
public final class AdmissionService {

  private static final JsonFormat.Printer JSON =
      JsonFormat.printer().omittingInsignificantWhitespace();

  private final SubscriptionLookup subscriptions;
  private final GraphStore graphs;
  private final StateMachines machines;
  private final AdmissionLog log;
  private final InstantSource clock;
  private final TenancyDirectory grants;

  /**
   * Admission that knows no grants: a subscription of another account's graph to the intake's
   * datasource is recorded UNBOUND and not started.
   */
  public AdmissionService(
      SubscriptionLookup subscriptions,
      GraphStore graphs,
      StateMachines machines,
      AdmissionLog log,
      InstantSource clock) {
    this(subscriptions, graphs, machines, log, clock, TenancyDirectory.empty());
  }

  /**
   * Admission that starts another account's graph only while {@code grants} says the datasource's
   * owner grants it to that account, checked on every upload so a revoke takes effect at once.
   */
  public AdmissionService(
      SubscriptionLookup subscriptions,
      GraphStore graphs,
      StateMachines machines,
      AdmissionLog log,
      InstantSource clock,
      TenancyDirectory grants) {
    this.grants = Objects.requireNonNull(grants, "grants");
    this.subscriptions = Objects.requireNonNull(subscriptions, "subscriptions");
    this.graphs = Objects.requireNonNull(graphs, "graphs");
    this.machines = Objects.requireNonNull(machines, "machines");
    this.log = Objects.requireNonNull(log, "log");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Admits the intake to every subscribed graph and returns what was recorded for each. An
   * UNDEPLOYED graph (active in the store, alias not yet moved) is recorded and then raised as
   * {@link NotYetDeployedException} after the other graphs were admitted, so the notification is
   * redelivered and converges on the executions already started.
   */
  public List<AdmissionRecord> admit(Intake intake) {
    Map<String, List<DatasourceSubscription>> byGraph = new LinkedHashMap<>();
    // One datasource may feed many graphs, other accounts' included (seed 001) while their owner
    // grants it (decision 1620): the grant is checked per graph below.
    for (DatasourceSubscription s : subscriptions.forDatasource(intake.datasourceId())) {
      byGraph.computeIfAbsent(s.getGraphId(), g -> new ArrayList<>()).add(s);
    }
    List<AdmissionRecord> recorded = new ArrayList<>();
    if (byGraph.isEmpty()) {
      recorded.add(
          record(
              intake,
              "",
              0,
              Outcome.UNBOUND,
              "",
              "",
              "datasource '" + intake.datasourceId() + "' feeds no active graph"));
      return recorded;
    }
    List<String> undeployed = new ArrayList<>();
    for (Map.Entry<String, List<DatasourceSubscription>> graph : byGraph.entrySet()) {
      AdmissionRecord r = admitToGraph(intake, graph.getKey(), graph.getValue().getFirst());
      recorded.add(r);
      if (r.outcome() == Outcome.UNDEPLOYED) {
        undeployed.add(r.graphId());
      }
    }
    if (!undeployed.isEmpty()) {
      throw new NotYetDeployedException(
          "doc '"
              + intake.docId()
              + "' could not be admitted to graph(s) "
              + undeployed
              + ": active in the graph store but the 'active' alias is not deployed yet",
          recorded);
    }
    return recorded;
  }

  private AdmissionRecord admitToGraph(
      Intake intake, String graphId, DatasourceSubscription subscription) {
    String graphAccount = subscription.getAccountId();
    if (!graphAccount.isEmpty()
        && !graphAccount.equals(intake.accountId())
        && !grants.granted(intake.datasourceId(), graphAccount)) {
      // Activation accepted the binding under a grant that is gone (or never was): not started.
      return record(
          intake,
          graphId,
          subscription.getVersion(),
          Outcome.UNBOUND,
          "",
          "",
          "graph '"
              + graphId
              + "' of account '"
              + graphAccount
              + "' subscribes to datasource '"
              + intake.datasourceId()
              + "' of account '"
              + intake.accountId()
              + "', which has no live grant to '"
              + graphAccount
              + "'");
    }
    // The subscription names the store's active version; its recorded ARN locates the machine.
    String anyVersionArn =
        graphs
            .get(graphId, subscription.getVersion())
            .map(StoredGraph::stateMachineVersionArn)
            .orElse("");
    if (anyVersionArn.isEmpty()) {
      return record(
          intake,
          graphId,
          subscription.getVersion(),
          Outcome.UNDEPLOYED,
          "",
          "",
          "graph version " + subscription.getVersion() + " has no published state machine version");
    }
    String machineArn = anyVersionArn.substring(0, anyVersionArn.lastIndexOf(':'));
    // Resolved once: every document of this intake runs the version the alias names right now.
    String pinnedArn = machines.aliasTarget(machineArn, StateMachineNames.ACTIVE_ALIAS).orElse("");
    StoredGraph pinned = storedAt(graphs, graphId, pinnedArn).orElse(null);
    if (pinned == null) {
      return record(
          intake,
          graphId,
          subscription.getVersion(),
          Outcome.UNDEPLOYED,
          "",
          "",
          pinnedArn.isEmpty()
              ? "alias 'active' of " + machineArn + " does not exist"
              : "alias 'active' points at "
                  + pinnedArn
                  + ", which no stored graph version recorded");
    }
    long version = pinned.graph().getVersion();
    String intakeNode = intakeNodeOf(pinned, intake.datasourceId());
    if (intakeNode.isEmpty()) {
      // The alias names a version that no longer reads this datasource: nothing to run it on.
      return record(
          intake,
          graphId,
          version,
          Outcome.UNBOUND,
          "",
          "",
          "the active version "
              + version
              + " of graph '"
              + graphId
              + "' has no intake node for datasource '"
              + intake.datasourceId()
              + "'");
    }
    String name =
        StateMachineNames.admissionExecutionName(
            intake.accountId(), intake.datasourceId(), intake.docId(), graphId, version);
    String input = executionInput(intake, pinned, intakeNode);
    return switch (machines.start(pinnedArn, name, input)) {
      case StartOutcome.Started started ->
          record(intake, graphId, version, Outcome.STARTED, name, started.executionArn(), "");
      case StartOutcome.AlreadyExists exists ->
          record(intake, graphId, version, Outcome.CONVERGED, name, "", exists.detail());
    };
  }

  /**
   * The stored version whose recorded state machine version ARN is {@code versionArn}, the way
   * an alias target is mapped back to a graph version; empty when none recorded it.
   */
  public static Optional<StoredGraph> storedAt(
      GraphStore graphs, String graphId, String versionArn) {
    if (versionArn.isEmpty()) {
      return Optional.empty();
    }
    return graphs.versions(graphId).stream()
        .filter(s -> s.stateMachineVersionArn().equals(versionArn))
        .findFirst();
  }

  /** The node of {@code pinned} that reads {@code datasourceId}, or empty text when none does. */
  public static String intakeNodeOf(StoredGraph pinned, String datasourceId) {
    return SubscriptionIds.derive(pinned.graph()).stream()
        .filter(s -> s.getDatasourceId().equals(datasourceId))
        .map(DatasourceSubscription::getIntakeNodeId)
        .findFirst()
        .orElse("");
  }

  /**
   * The execution input an intake starts with on {@code pinned}: the intake node and the stream
   * stamped with the pinned graph's identity. Replay starts executions with exactly this input, so
   * a replayed document is indistinguishable from a fresh intake to the hops.
   */
  public static String executionInput(Intake intake, StoredGraph pinned, String intakeNode) {
    PipeStream stamped = stamp(intake, pinned, intakeNode);
    try {
      return "{\"node\":" + quote(intakeNode) + ",\"stream\":" + JSON.print(stamped) + "}";
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(
          "stream of doc '" + intake.docId() + "' cannot be printed as JSON: " + e.getMessage(), e);
    }
  }

  /**
   * The stream's account is the graph's: every copy its hops stage lands in the storage of the
   * account that owns the graph, while the document reference still names the intake copy in the
   * uploader's account (decision 1620). A graph without an account runs in the intake's.
   */
  private static PipeStream stamp(Intake intake, StoredGraph pinned, String intakeNode) {
    String account =
        pinned.graph().getAccountId().isEmpty()
            ? intake.accountId()
            : pinned.graph().getAccountId();
    StreamMetadata.Builder metadata =
        intake.stream().getMetadata().toBuilder()
            .setGraphId(pinned.graph().getGraphId())
            .setGraphVersion(pinned.graph().getVersion())
            .setAccountId(account)
            .setDatasourceId(intake.datasourceId());
    return intake.stream().toBuilder()
        .setMetadata(metadata)
        .setCurrentNodeId(intakeNode)
        .setClusterId(pinned.graph().getClusterId())
        .build();
  }

  private AdmissionRecord record(
      Intake intake,
      String graphId,
      long version,
      Outcome outcome,
      String name,
      String executionArn,
      String detail) {
    AdmissionRecord r =
        new AdmissionRecord(
            intake.accountId(),
            intake.datasourceId(),
            intake.docId(),
            graphId,
            version,
            outcome,
            name,
            executionArn,
            detail,
            clock.instant());
    log.record(r);
    return r;
  }

  private static String quote(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (char ch : text.toCharArray()) {
      switch (ch) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        default -> {
          if (ch < 0x20) {
            out.append(String.format("\\u%04x", (int) ch));
          } else {
            out.append(ch);
          }
        }
      }
    }
    return out.append('"').toString();
  }

  /** Some subscribed graphs are not deployed yet; the intake must be redelivered. */
  public static final class NotYetDeployedException extends RuntimeException {
    private final transient List<AdmissionRecord> recorded;

    NotYetDeployedException(String message, List<AdmissionRecord> recorded) {
      super(message);
      this.recorded = List.copyOf(recorded);
    }

    public List<AdmissionRecord> recorded() {
      return recorded;
    }
  }
}
