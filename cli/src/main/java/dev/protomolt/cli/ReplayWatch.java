package dev.protomolt.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.protomolt.core.memo.MemoPolicy;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;
import software.amazon.awssdk.services.sfn.model.ListExecutionsResponse;

/**
 * Where the executions one replay run started stand (decision 1659): finished, running, and of
 * the running ones how many wait for a module. A replay records no row per document, so its
 * executions are found on the graph version it replays onto: listed newest first and only back
 * to the run's own start, each new one described once to read the replay's mark on its stream
 * ({@code metadata.context_params["protomolt.replay"]}, which every replayed hop carries), so
 * another run's or an ingest's executions on the same version are never counted.
 */
final class ReplayWatch {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final SfnClient sfn;
  private final String versionArn;
  private final String replayId;
  private final Instant since;
  // Only its endings are used: how a finished execution ended, read as ingest --wait reads it.
  private final DispositionWatch endings;
  private final Map<String, Boolean> mine = new HashMap<>();
  private final Map<String, DispositionWatch.Ending> ended = new HashMap<>();
  private final String graphId;
  private List<String> running = List.of();

  /**
   * @param versionArn the published version the run starts executions on
   * @param since when the run began: every execution it starts began after it
   */
  ReplayWatch(SfnClient sfn, String graphId, String versionArn, String replayId, Instant since) {
    this.sfn = sfn;
    this.graphId = graphId;
    this.versionArn = versionArn;
    this.replayId = replayId;
    this.since = since;
    this.endings = new DispositionWatch(docIds -> List.of(), sfn);
  }

  /** Reads the version's executions since the run began again. */
  void refresh() {
    List<String> open = new ArrayList<>();
    String token = null;
    pages:
    do {
      String next = token;
      ListExecutionsResponse page =
          sfn.listExecutions(b -> b.stateMachineArn(versionArn).nextToken(next));
      for (ExecutionListItem e : page.executions()) {
        if (e.startDate().isBefore(since)) {
          // Newest first: everything further down began before the run.
          break pages;
        }
        String arn = e.executionArn();
        if (!mine.computeIfAbsent(arn, this::startedByThisReplay)) {
          continue;
        }
        if (e.status() == ExecutionStatus.RUNNING) {
          open.add(arn);
        } else if (!ended.containsKey(arn)) {
          ended.put(
              arn, endings.endingOf(graphId, sfn.describeExecution(b -> b.executionArn(arn))));
        }
      }
      token = page.nextToken();
    } while (token != null);
    running = List.copyOf(open);
  }

  /** The replay's executions that have ended, as of the last {@link #refresh}. */
  int finished() {
    return ended.size();
  }

  /**
   * Of the replay's executions running at the last {@link #refresh}, how many wait for a module:
   * one history read each, so callers ask less often than they refresh.
   */
  int queued() {
    int queued = 0;
    for (String arn : running) {
      if (DispositionWatch.waitsForModule(sfn, arn)) {
        queued++;
      }
    }
    return queued;
  }

  /** How the finished executions ended, by disposition. */
  Map<String, Integer> dispositions() {
    Map<String, Integer> counts = new TreeMap<>();
    ended.values().forEach(e -> counts.merge(e.disposition(), 1, Integer::sum));
    return counts;
  }

  private boolean startedByThisReplay(String executionArn) {
    String input = sfn.describeExecution(b -> b.executionArn(executionArn)).input();
    try {
      JsonNode mark =
          JSON.readTree(input == null ? "{}" : input)
              .path("stream")
              .path("metadata")
              .path("contextParams")
              .path(MemoPolicy.REPLAY_PARAM);
      return replayId.equals(mark.asText(null));
    } catch (IOException e) {
      // Not an input a replay writes (AdmissionService.executionInput): not this replay's.
      return false;
    }
  }
}
