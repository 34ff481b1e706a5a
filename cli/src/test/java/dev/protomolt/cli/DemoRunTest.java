package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.localstack.cloud.LocalCloudSettings;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The demo over the bundled corpus on a real local platform: every document indexed. */
class DemoRunTest {

  @TempDir
  Path data;

  @Test
  void theBundledCorpusReachesTheSinkAndIsSearchable() throws Exception {
    try (LocalPlatform platform = LocalPlatform.start(LocalCloudSettings.ephemeral(data), 0)) {
      java.util.List<Integer> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
      DemoRun.Summary summary = DemoRun.run(platform, DemoRun.bundledCorpus(), "tide",
          Duration.ofSeconds(120), seen::add);
      assertThat(seen).as("progress counts rise to every document").isSorted().endsWith(3);
      assertThat(summary.complete()).as("%s", summary.documents()).isTrue();
      assertThat(summary.documents()).extracting(DemoRun.Outcome::disposition)
          .containsOnly("SINK_REACHED").hasSize(3);
      assertThat(summary.indexed()).isEqualTo(3);
      assertThat(summary.nodes()).as("%s", summary.nodes()).extracting(NodeTally::node)
          .containsExactly("intake:" + DemoRun.DATASOURCE, DemoGraph.PARSE, DemoGraph.CHUNK,
              DemoGraph.EMBED, DemoGraph.INDEX);
      assertThat(summary.nodes()).allSatisfy(n -> {
        assertThat(n.documents()).isEqualTo(3);
        assertThat(n.parts()).isGreaterThanOrEqualTo(3);
      });
      assertThat(summary.partsStored()).isEqualTo(summary.nodes().stream()
          .mapToLong(NodeTally::parts).sum()).isGreaterThan(15);
      assertThat(summary.sampleHit()).hasValueSatisfying(
          hit -> assertThat(hit.title()).containsIgnoringCase("tide"));

      // A second run on the same platform applies version 2 and reports that version's executions.
      DemoRun.Summary again = DemoRun.run(platform, DemoRun.bundledCorpus(), "tide",
          Duration.ofSeconds(120));
      assertThat(again.dispositions()).containsExactly(java.util.Map.entry("SINK_REACHED", 3));
      assertThat(platform.admissions(DemoRun.ACCOUNT)).as("%s", platform.admissions(DemoRun.ACCOUNT))
          .extracting(LocalPlatform.Admission::graphVersion)
          .containsOnly(1L, 2L).hasSize(6);
    }
  }

  @Test
  void anAccountIdThatCouldCoverTheIntakeCopiesIsRefusedNamingTheField() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> LocalPlatform.requireAccountId("_intake-copies"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("accountId: ");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> LocalPlatform.requireAccountId("a/b"))
        .hasMessageContaining("a/b");
  }

  @Test
  void aCorpusFolderThatIsNotADirectoryIsRefusedNamingTheArgument() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
        () -> DemoRun.corpusIn(data.resolve("absent")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("DIR: ")
        .hasMessageContaining("is not a directory");
  }
}
