package dev.protomolt.core.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NodeIdsTest {
  private static final String DOC = "s3://crawl-bucket/reports/2026 Q3 (final).pdf";

  @Test
  void theSameCoordinatesGiveTheSameIdInEveryJvm() {
    // Golden values: computed once and pinned, so a change of separator, charset or UUID version
    // (anything that would strand every stored row under a new id) fails here.
    assertThat(NodeIds.nodeId(DOC, "opensearch-sink", "acct-1", "graph-a"))
        .isEqualTo(UUID.fromString("f8aa4bc1-5b24-327e-a25c-389753bc8747"));
    assertThat(NodeIds.nodeId(NodeCoordinates.intake(DOC, "crawler-1", "acct-1")))
        .isEqualTo(UUID.fromString("97f4b446-e7f7-363e-8cd8-5162b09b1d70"));
  }

  @Test
  void idIsAVersion3NameUuid() {
    UUID id = NodeIds.nodeId(DOC, "parser", "acct-1", "graph-a");

    assertThat(id.version()).isEqualTo(3);
    assertThat(id)
        .isEqualTo(NodeIds.nodeId(new NodeCoordinates(DOC, "parser", "acct-1", "graph-a")));
  }

  @Test
  void aSameNamedNodeInAnotherGraphGetsAnotherId() {
    assertThat(NodeIds.nodeId(DOC, "opensearch-sink", "acct-1", "graph-a"))
        .isNotEqualTo(NodeIds.nodeId(DOC, "opensearch-sink", "acct-1", "graph-b"));
  }

  @Test
  void everyCoordinateTakesPartInTheId() {
    UUID base = NodeIds.nodeId("d", "n", "a", "g");

    assertThat(NodeIds.nodeId("d2", "n", "a", "g")).isNotEqualTo(base);
    assertThat(NodeIds.nodeId("d", "n2", "a", "g")).isNotEqualTo(base);
    assertThat(NodeIds.nodeId("d", "n", "a2", "g")).isNotEqualTo(base);
    assertThat(NodeIds.nodeId("d", "n", "a", "g2")).isNotEqualTo(base);
  }

  @Test
  void shiftingCharactersBetweenCoordinatesNeverCollides() {
    // With a printable separator such as ':' these pairs would join to the same string.
    assertThat(NodeIds.nodeId("a:b", "c", "acct", "g"))
        .isNotEqualTo(NodeIds.nodeId("a", "b:c", "acct", "g"));
    assertThat(NodeIds.nodeId("a|b", "c", "acct", "g"))
        .isNotEqualTo(NodeIds.nodeId("a", "b|c", "acct", "g"));
    assertThat(NodeIds.nodeId("ab", "c", "acct", "g"))
        .isNotEqualTo(NodeIds.nodeId("a", "bc", "acct", "g"));
  }

  @ParameterizedTest
  @CsvSource(
      value = {
        "NULL,n,a,g,doc_id",
        "'',n,a,g,doc_id",
        "'  ',n,a,g,doc_id",
        "d,NULL,a,g,graph_address_id",
        "d,'',a,g,graph_address_id",
        "d,n,NULL,g,account_id",
        "d,n,' ',g,account_id",
        "d,n,a,NULL,graph_id",
        "d,n,a,'\t',graph_id"
      },
      nullValues = "NULL")
  void blankCoordinatesAreRefusedNamingTheField(
      String doc, String node, String account, String graph, String field) {
    assertThatThrownBy(() -> NodeIds.nodeId(doc, node, account, graph))
        .isInstanceOfSatisfying(
            InvalidIdentityException.class, e -> assertThat(e.field()).isEqualTo(field))
        .hasMessageStartingWith(field + " must not be blank");
  }

  @Test
  void aCoordinateContainingTheSeparatorIsRefused() {
    assertThatThrownBy(() -> NodeIds.nodeId("a\u0000b", "n", "a", "g"))
        .isInstanceOfSatisfying(
            InvalidIdentityException.class, e -> assertThat(e.field()).isEqualTo("doc_id"))
        .hasMessageContaining("NUL");
  }

  @Test
  void anIntakeGraphOfAnotherAccountIsRefused() {
    assertThatThrownBy(() -> new NodeCoordinates("d", "intake", "acct-1", "intake:acct-2"))
        .isInstanceOfSatisfying(
            InvalidIdentityException.class, e -> assertThat(e.field()).isEqualTo("graph_id"))
        .hasMessageContaining("intake graph of account_id \"acct-1\"");
  }

  @Test
  void intakeAndPipelineCopiesOfOneDocumentDiffer() {
    NodeCoordinates intake = NodeCoordinates.intake(DOC, "crawler-1", "acct-1");

    assertThat(intake.graphId()).isEqualTo("intake:acct-1");
    assertThat(intake.rowKind()).isEqualTo(RowKind.INTAKE);
    assertThat(intake.graphAddressId()).isEqualTo("crawler-1");
    assertThat(new NodeCoordinates(DOC, "crawler-1", "acct-1", "graph-a").rowKind())
        .isEqualTo(RowKind.PIPELINE);
    assertThat(NodeIds.nodeId(intake))
        .isNotEqualTo(NodeIds.nodeId(DOC, "crawler-1", "acct-1", "graph-a"));
  }
}
