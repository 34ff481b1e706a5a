package dev.protomolt.statemachines;

import static dev.protomolt.statemachines.Graphs.edge;
import static dev.protomolt.statemachines.Graphs.graph;
import static dev.protomolt.statemachines.Graphs.intake;
import static dev.protomolt.statemachines.Graphs.processor;
import static dev.protomolt.statemachines.Graphs.sink;
import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.RetryPolicy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HistoryBudgetTest {

  @Test
  void theWorstPathIsTheHeaviestBranchNotTheFirst() {
    PipelineGraph graph =
        graph()
            .addNodes(intake("in"))
            .addNodes(processor("short"))
            .addNodes(sink("a"))
            .addNodes(processor("long1"))
            .addNodes(processor("long2"))
            .addNodes(sink("b"))
            .addEdges(edge("in", "short"))
            .addEdges(edge("short", "a"))
            .addEdges(edge("in", "long1"))
            .addEdges(edge("long1", "long2"))
            .addEdges(edge("long2", "b"))
            .build();
    assertThat(StateMachineCompiler.compile(graph).worstPath())
        .containsExactly("in", "long1", "long2", "b");
  }

  @Test
  void retriesWeighAPathMoreThanLength() {
    PipelineGraph graph =
        graph()
            .addNodes(
                processor("patient").setRetryPolicy(RetryPolicy.newBuilder().setMaxAttempts(50)))
            .addNodes(processor("x"))
            .addNodes(processor("y"))
            .addEdges(edge("x", "y"))
            .build();
    CompiledStateMachine compiled = StateMachineCompiler.compile(graph);
    assertThat(compiled.worstPath()).containsExactly("patient");
  }

  @Test
  void aTaskCostsTwoEventsPlusFourPerAttemptAndAMapCostsEachItem() {
    Map<String, Object> task =
        JsonObject.of()
            .with("Type", "Task")
            .with("Retry", List.of(JsonObject.of().with("MaxAttempts", 2), JsonObject.of()));
    assertThat(HistoryBudget.stateCost(task))
        .as("1 + 2 + 3 (default) attempts")
        .isEqualTo(2 + 4 * 6);
    Map<String, Object> inner = JsonObject.of().with("Type", "Task");
    Map<String, Object> map =
        JsonObject.of()
            .with("Type", "Map")
            .with(
                "ItemProcessor",
                JsonObject.of()
                    .with(
                        "States",
                        JsonObject.of()
                            .with("t", inner)
                            .with("p", JsonObject.of().with("Type", "Pass"))));
    long perItem = 2 + (2 + 4) + 2;
    assertThat(HistoryBudget.mapCost(map, 3)).isEqualTo(4 + 3 * perItem + 2);
  }
}
