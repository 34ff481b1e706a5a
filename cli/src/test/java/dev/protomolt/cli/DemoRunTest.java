package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.testsupport.StepFunctionsExecutions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * The demo over the bundled corpus on the shared local platform: every document indexed, and the
 * summary the demo prints. The demo owns account {@code demo} and graph {@code demo}, which no
 * other class on the shared platform uses.
 */
@ExtendWith(SharedPlatform.Resolver.class)
class DemoRunTest {

  @TempDir Path data;

  @Test
  void theBundledCorpusReachesTheSinkAndIsSearchable(SharedPlatform shared) throws Exception {
    LocalPlatform platform = shared.platform();
    List<Integer> seen = new CopyOnWriteArrayList<>();
    DemoRun.Summary summary =
        DemoRun.run(platform, DemoRun.bundledCorpus(), "tide", Duration.ofSeconds(120), seen::add);
    assertThat(seen).as("progress counts rise to every document").isSorted().endsWith(3);
    assertThat(summary.complete()).as("%s", summary.documents()).isTrue();
    assertThat(summary.documents())
        .extracting(DemoRun.Outcome::disposition)
        .containsOnly("SINK_REACHED")
        .hasSize(3);
    assertThat(summary.indexed()).isEqualTo(3);
    assertThat(summary.nodes())
        .as("%s", summary.nodes())
        .extracting(NodeTally::node)
        .containsExactly(
            "intake:" + DemoRun.DATASOURCE,
            DemoGraph.PARSE,
            DemoGraph.CHUNK,
            DemoGraph.EMBED,
            DemoGraph.INDEX);
    assertThat(summary.nodes())
        .allSatisfy(
            n -> {
              assertThat(n.documents()).isEqualTo(3);
              assertThat(n.parts()).isGreaterThanOrEqualTo(3);
            });
    assertThat(summary.partsStored())
        .isEqualTo(summary.nodes().stream().mapToLong(NodeTally::parts).sum())
        .isGreaterThan(15);
    assertThat(summary.sampleHit())
        .hasValueSatisfying(hit -> assertThat(hit.title()).containsIgnoringCase("tide"));

    assertThat(summary.perNode().rows())
        .containsExactly(
            new NodeDispositions.Row(DemoGraph.GRAPH_ID, DemoGraph.INDEX, "SINK_REACHED", 3));

    // A second run on the same platform applies version 2 and reports that version's executions;
    // its corpus adds a document the parser rejects (only blanks: no readable text).
    Map<String, byte[]> corpus = new LinkedHashMap<>(DemoRun.bundledCorpus());
    corpus.put("blank.txt", " \n\t\n".getBytes(StandardCharsets.UTF_8));
    DemoRun.Summary again = DemoRun.run(platform, corpus, "tide", Duration.ofSeconds(120));
    assertThat(again.complete()).as("%s", again.documents()).isTrue();
    assertThat(again.dispositions())
        .containsOnly(Map.entry("SINK_REACHED", 3), Map.entry("REJECTED", 1));
    assertThat(again.documents())
        .filteredOn(d -> d.name().equals("blank.txt"))
        .extracting(DemoRun.Outcome::disposition)
        .containsExactly("REJECTED");
    assertThat(again.perNode().rows())
        .as("%s", again.perNode())
        .containsExactly(
            new NodeDispositions.Row(DemoGraph.GRAPH_ID, DemoGraph.INDEX, "SINK_REACHED", 3),
            new NodeDispositions.Row(DemoGraph.GRAPH_ID, DemoGraph.PARSE, "REJECTED", 1));
    assertThat(again.perNode().totals())
        .containsOnly(Map.entry("SINK_REACHED", 3), Map.entry("REJECTED", 1));
    assertThat(again.perNode().total()).isEqualTo(4);
    assertThat(again.indexed()).isEqualTo(3);
    assertThat(platform.admissions(DemoRun.ACCOUNT))
        .as("%s", platform.admissions(DemoRun.ACCOUNT))
        .extracting(LocalPlatform.Admission::graphVersion)
        .containsOnly(1L, 2L)
        .hasSize(7);

    // A dead letter ends its execution FAILED; the node comes from the last state it entered.
    SfnClient sfn = platform.stepFunctions();
    String machine =
        sfn.createStateMachine(
                b ->
                    b.name("dead-letter-shape")
                        .roleArn("arn:aws:iam::000000000000:role/test")
                        .definition(
                            "{\"StartAt\":\"embed.Dlq\",\"States\":{"
                                + "\"embed.Dlq\":{\"Type\":\"Pass\",\"Next\":\"embed.DeadLettered\"},"
                                + "\"embed.DeadLettered\":{\"Type\":\"Fail\",\"Error\":\"ProtoMolt.DeadLettered\","
                                + "\"Cause\":\"dead-lettered\"}}}"))
            .stateMachineArn();
    String execution =
        sfn.startExecution(b -> b.stateMachineArn(machine).input("{}")).executionArn();
    DescribeExecutionResponse failed = StepFunctionsExecutions.awaitClosed(sfn, execution);
    assertThat(failed.status()).isEqualTo(ExecutionStatus.FAILED);
    DispositionWatch watch = new DispositionWatch(docIds -> java.util.List.of(), sfn);
    assertThat(watch.endingOf("demo", failed))
        .isEqualTo(new DispositionWatch.Ending("demo", "embed", DispositionWatch.DEAD_LETTERED));
  }

  @Test
  void anAccountIdThatCouldCoverTheIntakeCopiesIsRefusedNamingTheField() {
    Assertions.assertThatThrownBy(() -> LocalPlatform.requireAccountId("_intake-copies"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("accountId: ");
    Assertions.assertThatThrownBy(() -> LocalPlatform.requireAccountId("a/b"))
        .hasMessageContaining("a/b");
  }

  @Test
  void aCorpusFolderThatIsNotADirectoryIsRefusedNamingTheArgument() {
    Assertions.assertThatThrownBy(() -> DemoRun.corpusIn(data.resolve("absent")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("DIR: ")
        .hasMessageContaining("is not a directory");
  }
}
