package dev.protomolt.engine.admission;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.core.orchestration.AdmissionLog.AdmissionRecord;
import dev.protomolt.core.orchestration.AdmissionLog.Outcome;
import dev.protomolt.engine.activation.EngineDatabase;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The reads of {@code intake_admissions} the local platform and its watchers make. */
class PostgresAdmissionLogTest {

  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

  private PostgresAdmissionLog log;

  @BeforeEach
  void start() {
    log = new PostgresAdmissionLog(EngineDatabase.fresh());
  }

  private static AdmissionRecord admission(
      String account, String doc, String graph, long version, int secondsAfter) {
    return new AdmissionRecord(
        account,
        "docs",
        doc,
        graph,
        version,
        Outcome.STARTED,
        "exec-" + doc + "-" + graph,
        "arn:aws:states:us-east-1:000000000000:execution:protomolt-local-" + graph + ":" + doc,
        "",
        T0.plusSeconds(secondsAfter));
  }

  @Test
  void anAccountsAdmissionsComeOldestFirstAndNoOtherAccounts() {
    AdmissionRecord second = admission("acme", "doc-b", "g1", 1, 20);
    AdmissionRecord first = admission("acme", "doc-a", "g1", 1, 10);
    log.record(second);
    log.record(first);
    log.record(admission("globex", "doc-c", "g1", 1, 5));

    assertThat(log.forAccount("acme")).containsExactly(first, second);
    assertThat(log.forAccount("nobody")).isEmpty();
  }

  @Test
  void aBatchsAdmissionsAreThoseOfItsDocumentsSinceItStartedByDocumentThenGraph() {
    AdmissionRecord before = admission("acme", "doc-a", "g0", 1, -60);
    AdmissionRecord aG2 = admission("acme", "doc-a", "g2", 1, 30);
    AdmissionRecord aG1 = admission("acme", "doc-a", "g1", 3, 40);
    AdmissionRecord b = admission("acme", "doc-b", "g1", 3, 10);
    AdmissionRecord notAsked = admission("acme", "doc-z", "g1", 3, 10);
    for (AdmissionRecord r : List.of(before, aG2, aG1, b, notAsked)) {
      log.record(r);
    }

    assertThat(log.forDocuments("acme", List.of("doc-b", "doc-a"), T0))
        .containsExactly(aG1, aG2, b);
    assertThat(log.forDocuments("globex", List.of("doc-a"), T0)).isEmpty();
  }
}
