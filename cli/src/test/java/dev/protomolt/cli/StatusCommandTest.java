package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Timestamp;
import dev.protomolt.proto.module.v1.GetModuleBacklogResponse;
import dev.protomolt.proto.module.v1.GraphNodeBacklog;
import dev.protomolt.proto.module.v1.ModuleServiceBacklog;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** How {@code protomolt status} lays out an answer of the backlog door, without a platform. */
class StatusCommandTest {

  static final Timestamp STARTED = Timestamp.newBuilder().setSeconds(1_796_191_200L).build();

  @Test
  void theGraphNodeTableFollowsTheModuleTableAndSaysWhoseCountsTheyAre() {
    GetModuleBacklogResponse backlog =
        GetModuleBacklogResponse.newBuilder()
            .addModuleServices(
                ModuleServiceBacklog.newBuilder()
                    .setModuleId("chunker")
                    .setQueued(120)
                    .setOldestQueuedAgeSeconds(240)
                    .setStreamsOpen(1)
                    .setUnitsInFlight(1)
                    .setGroupLag(121))
            // In the door's order: by graph id, then node id.
            .addGraphNodes(
                GraphNodeBacklog.newBuilder()
                    .setGraphId("archive-2026")
                    .setNodeId("parse")
                    .setModuleId("chunker")
                    .setRejected(2)
                    .setDeadLettered(3))
            .addGraphNodes(
                GraphNodeBacklog.newBuilder()
                    .setGraphId("demo")
                    .setNodeId("chunk")
                    .setModuleId("chunker")
                    .setQueued(120)
                    .setOldestQueuedAgeSeconds(240)
                    .setUnitsInFlight(1)
                    .setDone(479)
                    .setRetried(1))
            .setCountedSince(STARTED)
            .build();
    assertThat(printed(backlog).lines())
        .containsExactly(
            "module service    queued      oldest  streams  in flight  group lag  memoized",
            "chunker              120       4 min        1          1        121         0",
            "",
            "per graph node: queued and in flight now; done, rejected and retried are the answering"
                + " gateway task's hops since it started at 2026-12-02T06:00:00Z; dead-lettered"
                + " counts the letters on the node's dead-letter topics",
            "graph         node   module service    queued      oldest  in flight      done"
                + "  rejected  retried  dead-lettered",
            "archive-2026  parse  chunker                0         0 s          0         0"
                + "         2        0              3",
            "demo          chunk  chunker              120       4 min          1       479"
                + "         0        1              0");
  }

  @Test
  void aTaskThatHeldNoWorkSaysSoInsteadOfAnEmptyTable() {
    GetModuleBacklogResponse backlog =
        GetModuleBacklogResponse.newBuilder()
            .addModuleServices(ModuleServiceBacklog.newBuilder().setModuleId("parser"))
            .setCountedSince(STARTED)
            .build();
    assertThat(printed(backlog))
        .endsWith(
            "per graph node: the answering gateway task has held no work since it started at"
                + " 2026-12-02T06:00:00Z"
                + System.lineSeparator());
  }

  private static String printed(GetModuleBacklogResponse backlog) {
    StringWriter text = new StringWriter();
    PrintWriter out = new PrintWriter(text);
    StatusCommand.print(backlog, out);
    out.flush();
    return text.toString();
  }
}
