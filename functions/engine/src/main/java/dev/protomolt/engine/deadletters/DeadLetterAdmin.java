package dev.protomolt.engine.deadletters;

import dev.protomolt.core.graph.GraphStore;
import dev.protomolt.core.graph.GraphStore.StoredGraph;
import dev.protomolt.engine.hop.DlqReprocessService;
import dev.protomolt.proto.config.v1.GraphNode;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The operator's door to a graph's dead letters: list them a page at a time, show one, and
 * reprocess one (or every one on a node) from its replay coordinates through {@link
 * DlqReprocessService}. A letter already reprocessed as often as its node allows is quarantined
 * instead, with the reason, and never re-driven again. Every request names its account, and a
 * graph of another account is refused naming {@code accountId}; letters of other accounts on a
 * shared override topic never show.
 */
public final class DeadLetterAdmin {

  public static final int DEFAULT_PAGE = 50;
  public static final int MAX_PAGE = 500;

  /** What a reprocess did with one letter. */
  public enum Verdict {
    REPROCESSED,
    QUARANTINED,
    ALREADY_QUARANTINED
  }

  /** A letter with its quarantine reason, if any. */
  public record Listed(DeadLetter letter, Optional<String> quarantined) {}

  public record ListPage(List<Listed> letters, Optional<String> nextPageToken) {}

  /** One letter's outcome: the execution started, or why it was quarantined. */
  public record Outcome(String dlqId, Verdict verdict, String detail) {}

  private final GraphStore graphs;
  private final DeadLetterTopics topics;
  private final DeadLetterQuarantine quarantine;
  private final DlqReprocessService reprocess;
  private final Clock clock;

  public DeadLetterAdmin(
      GraphStore graphs,
      DeadLetterTopics topics,
      DeadLetterQuarantine quarantine,
      DlqReprocessService reprocess,
      Clock clock) {
    this.graphs = Objects.requireNonNull(graphs, "graphs");
    this.topics = Objects.requireNonNull(topics, "topics");
    this.quarantine = Objects.requireNonNull(quarantine, "quarantine");
    this.reprocess = Objects.requireNonNull(reprocess, "reprocess");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** A page of the graph's dead letters (of one node when {@code nodeId} is set). */
  public ListPage list(
      String accountId, String graphId, String nodeId, String pageToken, Integer limit) {
    int size = limit == null ? DEFAULT_PAGE : limit;
    if (size < 1 || size > MAX_PAGE) {
      throw new DeadLetterRefused("limit", "must be 1 to " + MAX_PAGE + ", got " + size);
    }
    List<String> dlqTopics = topicsOf(accountId, graphId, nodeId);
    DeadLetterTopics.Position from = pageToken == null ? null : position(pageToken);
    List<DeadLetter> mine = new ArrayList<>();
    Optional<DeadLetterTopics.Position> next;
    // Letters of other accounts never show; a page is filled from the next ones.
    do {
      DeadLetterTopics.Page page = topics.read(dlqTopics, from, size - mine.size());
      page.letters().stream().filter(l -> mine(l, accountId, graphId)).forEach(mine::add);
      next = page.next();
      from = next.orElse(null);
    } while (next.isPresent() && mine.size() < size);
    Map<String, String> reasons =
        quarantine.reasons(mine.stream().map(l -> l.message().getDlqId()).toList());
    List<Listed> listed =
        mine.stream()
            .map(l -> new Listed(l, Optional.ofNullable(reasons.get(l.message().getDlqId()))))
            .toList();
    return new ListPage(listed, next.map(DeadLetterAdmin::token));
  }

  /** One dead letter of the graph by its id. */
  public Listed show(String accountId, String graphId, String dlqId) {
    DeadLetter letter = find(accountId, graphId, dlqId);
    return new Listed(letter, Optional.ofNullable(quarantine.reasons(List.of(dlqId)).get(dlqId)));
  }

  /**
   * Reprocesses the letter {@code dlqId}, or with {@code dlqId} null every letter of the graph
   * (of {@code nodeId} when set) that is not quarantined.
   */
  public List<Outcome> reprocess(String accountId, String graphId, String dlqId, String nodeId) {
    List<DeadLetter> letters = new ArrayList<>();
    if (dlqId != null) {
      letters.add(find(accountId, graphId, dlqId));
    } else {
      String token = null;
      do {
        ListPage page = list(accountId, graphId, nodeId, token, MAX_PAGE);
        page.letters().forEach(l -> letters.add(l.letter()));
        token = page.nextPageToken().orElse(null);
      } while (token != null);
    }
    Map<String, String> reasons =
        quarantine.reasons(letters.stream().map(l -> l.message().getDlqId()).toList());
    List<Outcome> out = new ArrayList<>();
    for (DeadLetter letter : letters) {
      String id = letter.message().getDlqId();
      if (reasons.containsKey(id)) {
        out.add(new Outcome(id, Verdict.ALREADY_QUARANTINED, reasons.get(id)));
        continue;
      }
      int cap = reprocess.capOf(letter.message());
      if (letter.message().getReprocessCount() >= cap) {
        String reason =
            "reprocessed "
                + letter.message().getReprocessCount()
                + " times, the cap of node '"
                + letter.message().getNodeId()
                + "' is "
                + cap
                + "; fix the cause and replay the document";
        quarantine.quarantine(letter, reason, clock.instant());
        out.add(new Outcome(id, Verdict.QUARANTINED, reason));
        continue;
      }
      out.add(new Outcome(id, Verdict.REPROCESSED, reprocess.reprocess(letter.message())));
    }
    return out;
  }

  private DeadLetter find(String accountId, String graphId, String dlqId) {
    if (dlqId == null || dlqId.isBlank()) {
      throw new DeadLetterRefused("dlqId", "is required");
    }
    List<String> dlqTopics = topicsOf(accountId, graphId, null);
    DeadLetterTopics.Position from = null;
    while (true) {
      DeadLetterTopics.Page page = topics.read(dlqTopics, from, MAX_PAGE);
      for (DeadLetter l : page.letters()) {
        if (l.message().getDlqId().equals(dlqId) && mine(l, accountId, graphId)) {
          return l;
        }
      }
      if (page.next().isEmpty()) {
        throw new DeadLetterRefused(
            "dlqId", "no dead letter '" + dlqId + "' on graph '" + graphId + "'");
      }
      from = page.next().get();
    }
  }

  /** The DLQ topics of every stored version of the graph (of one node when {@code nodeId} is set). */
  private List<String> topicsOf(String accountId, String graphId, String nodeId) {
    if (accountId == null || accountId.isBlank()) {
      throw new DeadLetterRefused("accountId", "is required");
    }
    if (graphId == null || graphId.isBlank()) {
      throw new DeadLetterRefused("graphId", "is required");
    }
    List<StoredGraph> versions = graphs.versions(graphId);
    if (versions.isEmpty()) {
      throw new DeadLetterRefused("graphId", "no graph '" + graphId + "' is stored");
    }
    if (versions.stream().noneMatch(v -> v.graph().getAccountId().equals(accountId))) {
      throw new DeadLetterRefused(
          "accountId", "graph '" + graphId + "' is not a graph of account '" + accountId + "'");
    }
    TreeSet<String> out = new TreeSet<>();
    boolean nodeSeen = false;
    for (StoredGraph v : versions) {
      if (!v.graph().getAccountId().equals(accountId)) {
        continue;
      }
      for (GraphNode node : v.graph().getNodesList()) {
        if (nodeId != null && !node.getNodeId().equals(nodeId)) {
          continue;
        }
        nodeSeen = true;
        out.add(DeadLetterTopicNames.of(v.graph(), node));
      }
    }
    if (nodeId != null && !nodeSeen) {
      throw new DeadLetterRefused(
          "nodeId", "graph '" + graphId + "' has no node '" + nodeId + "' in any version");
    }
    return List.copyOf(out);
  }

  /** A topic override may be shared by graphs: only this graph's and this account's letters. */
  private static boolean mine(DeadLetter l, String accountId, String graphId) {
    return l.message().getGraphId().equals(graphId) && l.accountId().equals(accountId);
  }

  private static String token(DeadLetterTopics.Position p) {
    String raw = p.topic() + "\n" + p.partition() + "\n" + p.offset();
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(raw.getBytes(StandardCharsets.UTF_8));
  }

  private static DeadLetterTopics.Position position(String token) {
    try {
      String[] parts =
          new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8).split("\n");
      if (parts.length != 3) {
        throw new IllegalArgumentException("three parts expected");
      }
      return new DeadLetterTopics.Position(
          parts[0], Integer.parseInt(parts[1]), Long.parseLong(parts[2]));
    } catch (IllegalArgumentException e) {
      throw new DeadLetterRefused(
          "pageToken", "is not a token a previous list returned ('" + token + "')");
    }
  }
}
