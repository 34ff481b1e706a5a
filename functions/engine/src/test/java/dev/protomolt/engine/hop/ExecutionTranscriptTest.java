package dev.protomolt.engine.hop;

import static dev.protomolt.core.graph.SampleGraphs.linear;
import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.core.doclog.DocumentLog;
import dev.protomolt.core.doclog.LogKey;
import dev.protomolt.core.orchestration.AdmissionLog.AdmissionRecord;
import dev.protomolt.engine.activation.EngineDatabase;
import dev.protomolt.engine.admission.Intake;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.module.v1.WorkDispatch;
import dev.protomolt.repository.doclog.PostgresDocumentLogStore;
import dev.protomolt.repository.doclog.PostgresLogPartIndex;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Execution transcripts written by the real hop services as a compiled graph runs on the local
 * Step Functions runtime, into PostgreSQL: the hops in order, and a log store that fails holds
 * nothing up.
 */
class ExecutionTranscriptTest {

  private HopHarness h;

  @AfterEach
  void stop() {
    if (h != null) {
      h.close();
    }
  }

  private static DocumentLog logOn(DataSource ds) {
    return new DocumentLog(new PostgresDocumentLogStore(ds), new PostgresLogPartIndex(ds));
  }

  @Test
  void aDocumentsTranscriptListsItsHopsAndDispositionsInOrder() throws Exception {
    AtomicReference<ExecutionTranscripts> transcripts = new AtomicReference<>();
    h =
        new HopHarness(
            HopContext.DEFAULT_INLINE_LIMIT,
            ds -> {
              transcripts.set(ExecutionTranscripts.writingTo(logOn(ds)));
              return transcripts.get();
            });
    String execution = admit("doc-1");
    List<String> units = new java.util.ArrayList<>();
    for (int hop = 0; hop < 3; hop++) {
      WorkDispatch work = h.nextDispatch();
      units.add(work.getWorkUnitId());
      h.succeed(work, work.getStream());
    }
    assertThat(h.awaitClosed(execution).status()).isEqualTo(ExecutionStatus.SUCCEEDED);

    LogKey key = ExecutionTranscripts.keyOf("acme", execution);
    assertThat(key.path())
        .isEqualTo("logs/executions/" + execution.substring(execution.lastIndexOf(':') + 1));
    String transcript = logOn(h.dataSource).read(key).orElseThrow();
    List<String> lines = transcript.lines().toList();
    assertThat(lines.getFirst())
        .isEqualTo("# execution " + execution + " of doc doc-1 (graph g1 v1)");
    // Each line after the header starts with its instant; what follows names hop, node and event.
    assertThat(lines.subList(1, lines.size()))
        .extracting(
            l ->
                l.substring(l.indexOf(" hop ") + 1)
                    .replaceAll("\\(work unit \\w+\\)", "(work unit W)"))
        .containsExactly(
            "hop 1 node in SUCCESS -> parse",
            "hop 2 node parse queued for module parser (work unit W)",
            "hop 2 node parse SUCCESS -> chunk",
            "hop 3 node chunk queued for module chunker (work unit W)",
            "hop 3 node chunk SUCCESS -> index",
            "hop 4 node index queued for module opensearch-sink (work unit W)",
            "hop 4 node index SUCCESS");
    assertThat(transcripts.get().failures()).isZero();
    assertThat(transcripts.get().linesWritten()).isEqualTo(7);

    // The console reads the module logs of a document's hops back through these lines.
    assertThat(ExecutionTranscripts.queuedHops(transcript + lines.get(2) + "\n"))
        .as("a repeated line (a retried Prepare) names its work unit once")
        .extracting(
            ExecutionTranscripts.QueuedHop::hop,
            ExecutionTranscripts.QueuedHop::nodeId,
            ExecutionTranscripts.QueuedHop::moduleId,
            ExecutionTranscripts.QueuedHop::workUnitId)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(2, "parse", "parser", units.get(0)),
            org.assertj.core.groups.Tuple.tuple(3, "chunk", "chunker", units.get(1)),
            org.assertj.core.groups.Tuple.tuple(4, "index", "opensearch-sink", units.get(2)));
  }

  @Test
  void aRejectIsTranscribedWithItsReason() throws Exception {
    h =
        new HopHarness(
            HopContext.DEFAULT_INLINE_LIMIT, ds -> ExecutionTranscripts.writingTo(logOn(ds)));
    String execution = admit("doc-bad");
    h.reject(h.nextDispatch(), "UNSUPPORTED_CONTENT", "encrypted pdf");
    h.awaitClosed(execution);

    String transcript =
        logOn(h.dataSource).read(ExecutionTranscripts.keyOf("acme", execution)).orElseThrow();
    assertThat(transcript.lines().toList().getLast())
        .contains("hop 2 node parse REJECTED error Module.Reject: ")
        .contains("UNSUPPORTED_CONTENT");
  }

  @Test
  void aFailingLogStoreNeitherFailsNorHoldsTheExecution() throws Exception {
    // A real fault: the transcripts' database has no tables, so every write is refused by
    // PostgreSQL itself.
    ExecutionTranscripts broken =
        ExecutionTranscripts.writingTo(logOn(EngineDatabase.unmigrated()));
    h = new HopHarness(HopContext.DEFAULT_INLINE_LIMIT, ds -> broken);
    String execution = admit("doc-2");
    for (int hop = 0; hop < 3; hop++) {
      WorkDispatch work = h.nextDispatch();
      h.succeed(work, work.getStream());
    }

    DescribeExecutionResponse done = h.awaitClosed(execution);
    assertThat(done.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    assertThat(HopHarness.parse(done.output()).get("disposition").asText())
        .isEqualTo("SINK_REACHED");
    assertThat(broken.linesWritten()).isZero();
    assertThat(broken.failures()).isEqualTo(7);
  }

  @Test
  void transcriptsThatAreOffWriteNothing() throws Exception {
    h = new HopHarness(HopContext.DEFAULT_INLINE_LIMIT, ds -> ExecutionTranscripts.OFF);
    String execution = admit("doc-3");
    WorkDispatch work = h.nextDispatch();
    h.succeed(work, work.getStream());
    work = h.nextDispatch();
    h.succeed(work, work.getStream());
    work = h.nextDispatch();
    h.succeed(work, work.getStream());
    h.awaitClosed(execution);

    assertThat(logOn(h.dataSource).status(ExecutionTranscripts.keyOf("acme", execution))).isEmpty();
  }

  private String admit(String docId) {
    var graph = linear("g1", 0);
    h.admin.create(graph, OptionalLong.empty(), "ann");
    h.activation.activate(graph.getGraphId(), "c1", 1);
    PipeDoc doc =
        PipeDoc.newBuilder()
            .setDocId(docId)
            .setSearchMetadata(SearchMetadata.newBuilder().setLanguage("en"))
            .build();
    List<AdmissionRecord> admitted =
        h.admission.admit(
            new Intake(
                "acme",
                "ds-1",
                docId,
                PipeStream.newBuilder().setStreamId("s-" + docId).setDocument(doc).build()));
    return admitted.getFirst().executionArn();
  }
}
