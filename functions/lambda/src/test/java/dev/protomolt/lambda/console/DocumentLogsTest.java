package dev.protomolt.lambda.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.protomolt.core.doclog.DocumentLog;
import dev.protomolt.core.doclog.InMemoryDocumentLogStore;
import dev.protomolt.core.doclog.InMemoryLogPartIndex;
import dev.protomolt.core.doclog.LogKey;
import dev.protomolt.core.doclog.WindowSpec;
import dev.protomolt.core.orchestration.AdmissionLog.AdmissionRecord;
import dev.protomolt.core.orchestration.AdmissionLog.Outcome;
import dev.protomolt.engine.hop.ExecutionTranscripts;
import dev.protomolt.lambda.EventJson;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Paging the module logs of a document's hops: every line once, in hop order, across page
 * boundaries that fall inside a hop, at a hop's end and on a hop that logged nothing.
 */
class DocumentLogsTest {

  static final String ARN = "arn:aws:states:us-east-1:000000000000:execution:m:run-1";

  private final DocumentLog log =
      new DocumentLog(new InMemoryDocumentLogStore(), new InMemoryLogPartIndex());
  private final DocumentLogs logs = new DocumentLogs(EventJson.MAPPER, log);
  private final List<AdmissionRecord> admissions =
      List.of(
          new AdmissionRecord(
              "acme",
              "uploads",
              "doc-1",
              "g",
              1,
              Outcome.STARTED,
              "run-1",
              ARN,
              "",
              Instant.parse("2026-03-04T05:06:07Z")));

  private void write(LogKey key, String text) {
    log.open(key, WindowSpec.DEFAULT);
    log.append(key, text, log.status(key).orElseThrow().length());
  }

  private void hops() {
    write(
        ExecutionTranscripts.keyOf("acme", ARN),
        "# execution "
            + ARN
            + " of doc doc-1 (graph g v1)\n"
            + "2026-03-04T05:06:08Z hop 1 node in SUCCESS -> parse\n"
            + "2026-03-04T05:06:09Z hop 2 node parse queued for module parser (work unit wu-a)\n"
            + "2026-03-04T05:06:10Z hop 3 node chunk queued for module chunker (work unit wu-b)\n"
            + "2026-03-04T05:06:11Z hop 4 node sink queued for module sink (work unit wu-c)\n");
    write(
        LogKey.workUnitLog("acme", "wu-a"),
        "2026-03-04T05:06:09.1Z INFO a0\n2026-03-04T05:06:09.2Z INFO a1\n"
            + "2026-03-04T05:06:09.3Z ERROR a2\n");
    // wu-b logged nothing: its hop is listed with no lines.
    write(LogKey.workUnitLog("acme", "wu-c"), "2026-03-04T05:06:11.1Z INFO c0\n");
  }

  private List<String> allLines(int limit) {
    List<String> seen = new ArrayList<>();
    DocumentLogs.PageStart start = null;
    for (int pages = 0; pages < 20; pages++) {
      ObjectNode page = logs.page("acme", "doc-1", admissions, limit, start);
      for (JsonNode hop : page.path("hops")) {
        for (JsonNode line : hop.path("lines")) {
          seen.add(hop.path("workUnitId").asText() + ":" + line.path("text").asText());
        }
      }
      if (!page.has("nextPageToken")) {
        return seen;
      }
      start = DocumentLogs.PageStart.parse(page.path("nextPageToken").asText());
    }
    throw new AssertionError("paging did not end: " + seen);
  }

  @Test
  void everyPageSizeReadsEveryLineOnceInHopOrder() {
    hops();
    for (int limit = 1; limit <= 5; limit++) {
      assertThat(allLines(limit))
          .as("limit %d", limit)
          .containsExactly("wu-a:a0", "wu-a:a1", "wu-a:a2", "wu-c:c0");
    }
  }

  @Test
  void eachHopSaysWhatItIsAndAHopWithoutALogIsListedEmpty() {
    hops();
    ObjectNode page = logs.page("acme", "doc-1", admissions, 200, null);
    assertThat(page.path("transcribed").asBoolean()).isTrue();
    assertThat(page.path("hops").findValuesAsText("workUnitId"))
        .containsExactly("wu-a", "wu-b", "wu-c");
    JsonNode a = page.path("hops").get(0);
    assertThat(a.path("hop").asInt()).isEqualTo(2);
    assertThat(a.path("nodeId").asText()).isEqualTo("parse");
    assertThat(a.path("moduleId").asText()).isEqualTo("parser");
    assertThat(a.path("queuedAt").asText()).isEqualTo("2026-03-04T05:06:09Z");
    assertThat(a.path("sealed").asBoolean()).isFalse();
    assertThat(a.path("lines").get(2).path("level").asText()).isEqualTo("ERROR");
    assertThat(a.path("lines").get(2).path("at").asText()).isEqualTo("2026-03-04T05:06:09.3Z");
    JsonNode b = page.path("hops").get(1);
    assertThat(b.path("logged").asBoolean()).isFalse();
    assertThat(b.path("lines").size()).isZero();
  }

  @Test
  void withoutTranscriptsNoHopIsNamedAndBadPagingFieldsAreNamed() {
    ObjectNode page = logs.page("acme", "doc-1", admissions, 200, null);
    assertThat(page.path("transcribed").asBoolean()).isFalse();
    assertThat(page.path("hops").size()).isZero();

    hops();
    assertThatThrownBy(
            () ->
                logs.page("acme", "doc-1", admissions, 10, new DocumentLogs.PageStart("wu-zzz", 0)))
        .isInstanceOfSatisfying(
            ConsoleRefusal.class,
            r -> {
              assertThat(r.status()).isEqualTo(400);
              assertThat(r.field()).isEqualTo("pageToken");
            });
    // Not base64; no '|'; nothing before the '|'; a negative line.
    for (String bad : new String[] {"%%", "bm8tYmFy", "fDE", "d3V8LTE"}) {
      assertThatThrownBy(() -> DocumentLogs.PageStart.parse(bad))
          .as(bad)
          .isInstanceOfSatisfying(
              ConsoleRefusal.class, r -> assertThat(r.field()).isEqualTo("pageToken"));
    }
    for (String bad : new String[] {"0", "501", "ten"}) {
      assertThatThrownBy(() -> DocumentLogs.limit(bad))
          .isInstanceOfSatisfying(
              ConsoleRefusal.class, r -> assertThat(r.field()).isEqualTo("limit"));
    }
    assertThat(DocumentLogs.limit(null)).isEqualTo(DocumentLogs.LINE_PAGE);
  }
}
