package dev.protomolt.lambda.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.HistoryEvent;
import software.amazon.awssdk.services.sfn.model.HistoryEventType;

/** The console's status per node, from history events, where a Complete hands on (decision 1842). */
class DocumentRunsNodesTest {

  private static final Path LINEAR =
      Path.of("..", "..", "statemachines", "golden", "linear", "expected.asl.json");

  @Test
  void theCompiledLinearGraphHandsOnFromEachProcessorsComplete() throws IOException {
    assertThat(DocumentRuns.handOnsIn(Files.readString(LINEAR, StandardCharsets.UTF_8)))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "parser.Complete", "chunker",
                "chunker.Complete", "embedder",
                "embedder.Complete", "opensearch-sink"));
  }

  @Test
  void theNodeAHandingOnCompleteWaitsOnIsInFlightAndTheCompletingNodeDoneOnceItLeaves() {
    Map<String, String> handOns = Map.of("parser.Complete", "chunker");
    List<HistoryEvent> waiting =
        List.of(entered("Start"), entered("parser.Work"), entered("parser.Complete"));
    assertThat(DocumentRuns.nodes(waiting, handOns, "", "").toString())
        .as("chunker has no Work state on the way; its module is running")
        .isEqualTo("{\"parser\":\"IN_FLIGHT\",\"chunker\":\"IN_FLIGHT\"}");

    List<HistoryEvent> handedOn =
        List.of(
            entered("Start"),
            entered("parser.Work"),
            entered("parser.Complete"),
            exited("parser.Complete"),
            entered("chunker.Complete"));
    assertThat(DocumentRuns.nodes(handedOn, handOns, "", "").toString())
        .isEqualTo("{\"parser\":\"DONE\",\"chunker\":\"IN_FLIGHT\"}");
    assertThat(DocumentRuns.nodes(handedOn, Map.of(), "", "").toString())
        .as("without the hand-on, chunker would only look admitted")
        .isEqualTo("{\"parser\":\"DONE\",\"chunker\":\"ADMITTED\"}");
  }

  private static HistoryEvent entered(String state) {
    return HistoryEvent.builder()
        .type(HistoryEventType.TASK_STATE_ENTERED)
        .stateEnteredEventDetails(d -> d.name(state))
        .build();
  }

  private static HistoryEvent exited(String state) {
    return HistoryEvent.builder()
        .type(HistoryEventType.TASK_STATE_EXITED)
        .stateExitedEventDetails(d -> d.name(state))
        .build();
  }
}
