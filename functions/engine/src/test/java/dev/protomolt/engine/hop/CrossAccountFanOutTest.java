package dev.protomolt.engine.hop;

import static dev.protomolt.core.graph.SampleGraphs.linear;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.graph.GraphAdminException;
import dev.protomolt.core.orchestration.AdmissionLog.AdmissionRecord;
import dev.protomolt.core.orchestration.AdmissionLog.Outcome;
import dev.protomolt.engine.admission.Intake;
import dev.protomolt.engine.graphs.DatasourceGrant;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.module.v1.WorkDispatch;
import dev.protomolt.repository.fixtures.StoreHarness;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One datasource fanning out to many graphs: two of its owner's and one of another account that
 * was granted it. Each upload starts one execution per graph, and each graph's hops stage their
 * copies in the storage of the account that owns the graph. Real store, real Step Functions
 * runtime, real Postgres grants.
 */
class CrossAccountFanOutTest {

  private HopHarness h;

  @BeforeEach
  void start() {
    h = new HopHarness();
    RecordingStaging.store().onAccountEvent(StoreHarness.platformAccount("globex"));
    h.owners.bind("ds-1", "acme");
  }

  @AfterEach
  void stop() {
    h.close();
  }

  @Test
  void oneUploadRunsInTwoGraphsOfItsAccountAndOneGrantedGraphOfAnother() throws Exception {
    h.grants.grant("ds-1", "acme", "globex", "ops@acme", "shared crawl");
    activate(linear("acme-a", 0));
    activate(linear("acme-b", 0));
    activate(linear("globex-a", 0).toBuilder().setAccountId("globex").build());

    List<AdmissionRecord> admitted = h.admission.admit(upload("fan-1"));

    assertThat(admitted)
        .extracting(AdmissionRecord::graphId, AdmissionRecord::outcome)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("acme-a", Outcome.STARTED),
            org.assertj.core.groups.Tuple.tuple("acme-b", Outcome.STARTED),
            org.assertj.core.groups.Tuple.tuple("globex-a", Outcome.STARTED));
    assertThat(admitted)
        .extracting(AdmissionRecord::executionArn)
        .as("one execution each")
        .doesNotHaveDuplicates();

    Map<String, WorkDispatch> byGraph = new HashMap<>();
    for (int i = 0; i < 3; i++) {
      WorkDispatch work = h.nextDispatch();
      byGraph.put(work.getStream().getMetadata().getGraphId(), work);
    }
    assertThat(byGraph).containsOnlyKeys("acme-a", "acme-b", "globex-a");
    byGraph.forEach(
        (graph, work) -> {
          String account = graph.startsWith("globex") ? "globex" : "acme";
          assertThat(work.getNodeId()).isEqualTo("parse");
          assertThat(work.getStream().getMetadata().getAccountId()).as(graph).isEqualTo(account);
          assertThat(work.getStream().getDocumentRef().getAccountId())
              .as("%s stages in its own account's storage", graph)
              .isEqualTo(account);
          assertThat(work.getStream().getDocumentRef().getGraphId()).isEqualTo(graph);
        });
    assertThat(h.staging.staged)
        .filteredOn(s -> s.docId().equals("fan-1"))
        .extracting(RecordingStaging.Staged::graphId, RecordingStaging.Staged::accountId)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("acme-a", "acme"),
            org.assertj.core.groups.Tuple.tuple("acme-b", "acme"),
            org.assertj.core.groups.Tuple.tuple("globex-a", "globex"));
  }

  @Test
  void anotherAccountsGraphIsRefusedUntilTheOwnerGrantsTheDatasource() {
    PipelineGraph globex = linear("globex-a", 0).toBuilder().setAccountId("globex").build();

    assertThatThrownBy(() -> h.admin.create(globex, OptionalLong.empty(), "gina"))
        .isInstanceOf(GraphAdminException.class)
        .hasMessageContaining("intake node 'in' binds datasource 'ds-1' of account 'acme'")
        .hasMessageContaining("'acme' has not granted it to 'globex'");

    h.grants.grant("ds-1", "acme", "globex", "ops@acme", "");
    assertThat(h.admin.create(globex, OptionalLong.empty(), "gina").graph().getVersion())
        .isEqualTo(1);
  }

  @Test
  void aRevokedGrantStopsTheNextUploadReachingTheGranteeAndIsAudited() throws Exception {
    h.grants.grant("ds-1", "acme", "globex", "ops@acme", "trial");
    activate(linear("acme-a", 0));
    activate(linear("globex-a", 0).toBuilder().setAccountId("globex").build());
    h.clock.advance(java.time.Duration.ofMinutes(1));

    h.grants.revoke("ds-1", "acme", "globex", "sec@acme");
    List<AdmissionRecord> admitted = h.admission.admit(upload("after-revoke"));

    assertThat(admitted)
        .filteredOn(r -> r.graphId().equals("acme-a"))
        .singleElement()
        .satisfies(r -> assertThat(r.outcome()).isEqualTo(Outcome.STARTED));
    assertThat(admitted)
        .filteredOn(r -> r.graphId().equals("globex-a"))
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.outcome()).isEqualTo(Outcome.UNBOUND);
              assertThat(r.executionArn()).isEmpty();
              assertThat(r.detail())
                  .isEqualTo(
                      "graph 'globex-a' of account 'globex' subscribes to datasource 'ds-1' of"
                          + " account 'acme', which has no live grant to 'globex'");
            });
    assertThat(h.grants.history("ds-1"))
        .singleElement()
        .satisfies(
            g -> {
              assertThat(g.grantedBy()).isEqualTo("ops@acme");
              assertThat(g.reason()).isEqualTo("trial");
              assertThat(g.revokedBy()).contains("sec@acme");
              assertThat(g.revokedAt()).isPresent();
              assertThat(g.revokedAt().get()).isAfter(g.grantedAt());
              assertThat(g.live()).isFalse();
            });
  }

  @Test
  void grantsAreRefusedNamingTheFieldAndTheRule() {
    assertThatThrownBy(() -> h.grants.grant("ds-1", "globex", "initech", "eve", ""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "ownerAccountId: 'globex' does not own datasource 'ds-1'; only its owner may grant"
                + " access to it");
    assertThatThrownBy(() -> h.grants.grant("ds-1", "acme", "acme", "ops", ""))
        .hasMessage(
            "granteeAccountId: 'acme' already owns datasource 'ds-1'; a grant is for another"
                + " account");
    assertThatThrownBy(() -> h.grants.grant("ds-unknown", "acme", "globex", "ops", ""))
        .hasMessage("datasourceId: 'ds-unknown' is not registered");
    assertThatThrownBy(() -> h.grants.grant("ds-1", "acme", " ", "ops", ""))
        .hasMessage("granteeAccountId: must be non-blank, got ' '");
    assertThatThrownBy(() -> h.grants.grant("ds-1", "acme", "globex", "", ""))
        .hasMessage("principal: must be non-blank, got ''");
    assertThatThrownBy(() -> h.grants.revoke("ds-1", "acme", "globex", "ops"))
        .hasMessage("granteeAccountId: datasource 'ds-1' has no live grant to 'globex' to revoke");

    DatasourceGrant first = h.grants.grant("ds-1", "acme", "globex", "ops", "");
    assertThat(h.grants.grant("ds-1", "acme", "globex", "someone-else", ""))
        .as("granting what is live changes nothing")
        .isEqualTo(first);
    assertThatThrownBy(() -> h.grants.revoke("ds-1", "globex", "globex", "eve"))
        .hasMessageStartingWith("ownerAccountId: 'globex' does not own datasource 'ds-1'");
    assertThat(h.grants.live("ds-1", "globex")).contains(first);
  }

  private void activate(PipelineGraph graph) {
    h.admin.create(graph, OptionalLong.empty(), "ann");
    h.activation.activate(graph.getGraphId(), graph.getClusterId(), 1);
  }

  private static Intake upload(String docId) {
    PipeDoc doc =
        PipeDoc.newBuilder()
            .setDocId(docId)
            .setSearchMetadata(SearchMetadata.newBuilder().setLanguage("en").setBody("shared"))
            .build();
    return new Intake(
        "acme",
        "ds-1",
        docId,
        PipeStream.newBuilder().setStreamId("s-" + docId).setDocument(doc).build());
  }
}
