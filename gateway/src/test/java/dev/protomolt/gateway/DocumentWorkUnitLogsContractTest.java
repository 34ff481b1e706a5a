package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.core.doclog.DocumentLog;
import dev.protomolt.core.doclog.InMemoryDocumentLogStore;
import dev.protomolt.core.doclog.InMemoryLogPartIndex;
import org.junit.jupiter.api.Test;

/**
 * The document-log implementation holds the {@link WorkUnitLogs} contract. Its log store is the
 * in-memory implementation of the document log's own port, which the PostgreSQL one is held to in
 * the repository module; what is under test here is what the gateway's side does with refusals.
 */
class DocumentWorkUnitLogsContractTest extends WorkUnitLogsContract {

  private DocumentWorkUnitLogs documentLogs;

  @Override
  protected WorkUnitLogs emptyLogs() {
    InMemoryLogPartIndex index = new InMemoryLogPartIndex();
    documentLogs =
        new DocumentWorkUnitLogs(new DocumentLog(new InMemoryDocumentLogStore(), index), index);
    return documentLogs;
  }

  @Test
  void whatItCouldKeepIsReadableAndWhatItCouldNotIsCounted() {
    logs.record(dispatch("u1"), noOp("u1", "parsed 3 pages"), "worker-1");
    logs.record(dispatch("u 4"), noOp("u 4", "a line with nowhere to go"), "worker-1");
    assertThat(documentLogs.read(WorkProtocolTest.ACCOUNT, "u1"))
        .hasValueSatisfying(text -> assertThat(text).contains("parsed 3 pages"));
    assertThat(documentLogs.linesKept()).isEqualTo(1);
    assertThat(documentLogs.failures()).isEqualTo(1);
  }
}
