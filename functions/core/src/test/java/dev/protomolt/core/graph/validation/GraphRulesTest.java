package dev.protomolt.core.graph.validation;

import static dev.protomolt.core.graph.SampleGraphs.edge;
import static dev.protomolt.core.graph.SampleGraphs.intake;
import static dev.protomolt.core.graph.SampleGraphs.linear;
import static dev.protomolt.core.graph.SampleGraphs.processor;
import static dev.protomolt.core.graph.SampleGraphs.sink;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.cel.PipelineCelEnvironment;
import dev.protomolt.proto.config.v1.FilterCondition;
import dev.protomolt.proto.config.v1.GraphEdge;
import dev.protomolt.proto.config.v1.IndexPlan;
import dev.protomolt.proto.config.v1.MappingType;
import dev.protomolt.proto.config.v1.Memoization;
import dev.protomolt.proto.config.v1.NodeType;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.ProcessingMapping;
import dev.protomolt.proto.config.v1.Severity;
import dev.protomolt.proto.config.v1.TransportType;
import dev.protomolt.proto.config.v1.ValidationMode;
import dev.protomolt.proto.config.v1.ValidationResult;
import dev.protomolt.proto.config.v1.ValidationViolation;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Tests grouped by rule (method names start with the rule); each asserts the exact rule, location and violation text. */
class GraphRulesTest {

  private static final PipelineCelEnvironment CEL = PipelineCelEnvironment.create();
  private static final TenancyDirectory TENANCY =
      id ->
          Optional.ofNullable(Map.of("ds-1", "acme", "ds-2", "acme", "ds-other", "globex").get(id));
  private static final IndexPlanRegistry PLANS =
      IndexPlanRegistry.of(
          List.of(
              IndexPlan.newBuilder().setPlanId("plan-1").setModuleId("opensearch-sink").build(),
              IndexPlan.newBuilder().setPlanId("lucene-1").setModuleId("index-sink").build()));
  private static final GraphValidator VALIDATOR = GraphValidator.standard(CEL, TENANCY, PLANS);

  private static ValidationResult draft(PipelineGraph graph) {
    return VALIDATOR.validate(graph, ValidationMode.VALIDATION_MODE_DRAFT);
  }

  private static List<ValidationViolation> of(ValidationResult result, String rule) {
    return result.getViolationsList().stream().filter(v -> v.getRule().equals(rule)).toList();
  }

  @Test
  void theSampleGraphIsValidInEveryMode() {
    for (ValidationMode mode :
        List.of(
            ValidationMode.VALIDATION_MODE_DRAFT,
            ValidationMode.VALIDATION_MODE_DESIGN,
            ValidationMode.VALIDATION_MODE_PRODUCTION)) {
      ValidationResult result = VALIDATOR.validate(linear("g", 1), mode);
      assertThat(result.getViolationsList()).as(mode.name()).isEmpty();
      assertThat(result.getValid()).isTrue();
      assertThat(result.getMode()).isEqualTo(mode);
    }
  }

  @Test
  void allViolationsAreReturnedTogether() {
    PipelineGraph graph =
        linear("g", 1).toBuilder()
            .addEdges(edge("e9", "index", "ghost"))
            .addEdges(edge("e10", "chunk", "parse", "document.nope == 1", 0))
            .build();
    ValidationResult result = draft(graph);
    assertThat(result.getValid()).isFalse();
    assertThat(result.getViolationsList())
        .extracting(ValidationViolation::getRule)
        .contains("EdgeEndpoints", "NoCycles", "CelExpression");
  }

  @Test
  void unspecifiedModeIsRefusedNamingTheField() {
    assertThatThrownBy(
            () -> VALIDATOR.validate(linear("g", 1), ValidationMode.VALIDATION_MODE_UNSPECIFIED))
        .hasMessageContaining("mode must be DRAFT, DESIGN or PRODUCTION");
  }

  // ---- RequiredIds ----
  @Test
  void requiredIds_blankGraphNodeAndEdgeIds() {
    PipelineGraph graph =
        linear("", 1).toBuilder()
            .addNodes(processor("", "parser").toBuilder().setName("nameless"))
            .addEdges(edge("", "in", "parse"))
            .build();
    List<ValidationViolation> v = of(draft(graph), "RequiredIds");
    assertThat(v)
        .extracting(ValidationViolation::getMessage)
        .containsExactly(
            "graph_id is blank: a graph id is part of every stored document's address",
            "nodes[4] ('nameless') has a blank node_id",
            "edges[3] (in -> parse) has a blank edge_id");
  }

  @Test
  void requiredIds_aGraphIdNamingThePlatformsReplayMachineIsRefused() {
    List<ValidationViolation> v = of(draft(linear("replay", 1)), "RequiredIds");
    assertThat(v)
        .extracting(ValidationViolation::getMessage)
        .containsExactly(
            "graph_id 'replay' is reserved: it names the platform's own state machine"
                + " protomolt-<env>-replay");
    assertThat(of(draft(linear("replays", 1)), "RequiredIds")).isEmpty();
  }

  // ---- DuplicateIds ----
  @Test
  void duplicateIds_duplicateNodeAndEdgeIdsReportedOnce() {
    PipelineGraph graph =
        linear("g", 1).toBuilder()
            .addNodes(processor("parse", "other"))
            .addNodes(processor("parse", "third"))
            .addEdges(edge("e1", "parse", "index"))
            .build();
    List<ValidationViolation> v = of(draft(graph), "DuplicateIds");
    assertThat(v).hasSize(2);
    assertThat(v.get(0).getNodeId()).isEqualTo("parse");
    assertThat(v.get(0).getMessage()).isEqualTo("node_id 'parse' is used by more than one node");
    assertThat(v.get(1).getEdgeId()).isEqualTo("e1");
    assertThat(v.get(1).getMessage()).isEqualTo("edge_id 'e1' is used by more than one edge");
  }

  // ---- NodeType ----
  @Test
  void nodeType_typeAndModuleRequirements() {
    PipelineGraph graph =
        linear("g", 1).toBuilder()
            .setNodes(1, processor("parse", ""))
            .addNodes(processor("x", "m").toBuilder().setNodeType(NodeType.NODE_TYPE_UNSPECIFIED))
            .addNodes(intake("in2", "ds-2").toBuilder().setModuleId("parser"))
            .addEdges(edge("ex", "in", "x"))
            .build();
    assertThat(of(draft(graph), "NodeType"))
        .extracting(ValidationViolation::getMessage)
        .containsExactly(
            "processor node 'parse' has no module_id: it must name the module service it runs",
            "node 'x' has no node_type: set INTAKE, PROCESSOR or SINK",
            "intake node 'in2' names module_id 'parser', but intake nodes run no module; move the"
                + " module to a PROCESSOR node");
  }

  // ---- Memoization ----
  @Test
  void memoization_intakeNodesUnknownModesAndBadModuleVersions() {
    PipelineGraph graph =
        linear("g", 1).toBuilder()
            .setNodes(
                0, intake("in", "ds-1").toBuilder().setMemoization(Memoization.MEMOIZATION_ALWAYS))
            .setNodes(1, processor("parse", "parser").toBuilder().setMemoizationValue(42))
            .setNodes(2, processor("chunk", "chunker").toBuilder().setModuleVersion("v 2"))
            .build();
    assertThat(of(draft(graph), "Memoization"))
        .extracting(ValidationViolation::getMessage)
        .containsExactly(
            "intake node 'in' sets memoization, but intake nodes run no module; remove it",
            "node 'parse' has an unknown memoization (42); use REPLAYS, ALWAYS or OFF",
            "node 'chunk' has module_version 'v 2': it must be at most 128 printable ASCII"
                + " characters without spaces");
    PipelineGraph fine =
        linear("g", 1).toBuilder()
            .setNodes(
                1,
                processor("parse", "parser").toBuilder()
                    .setMemoization(Memoization.MEMOIZATION_OFF)
                    .setModuleVersion("parser-1.4"))
            .build();
    assertThat(of(draft(fine), "Memoization")).isEmpty();
  }

  // ---- EdgeEndpoints ----
  @Test
  void edgeEndpoints_unknownBlankAndIntoIntake() {
    PipelineGraph graph =
        linear("g", 1).toBuilder()
            .addEdges(edge("e4", "ghost", "index"))
            .addEdges(edge("e5", "chunk", ""))
            .addEdges(edge("e6", "parse", "in"))
            .build();
    List<ValidationViolation> v = of(draft(graph), "EdgeEndpoints");
    assertThat(v).extracting(ValidationViolation::getEdgeId).containsExactly("e4", "e5", "e6");
    assertThat(v)
        .extracting(ValidationViolation::getMessage)
        .containsExactly(
            "edge 'e4' starts at node 'ghost', which is not in this graph version",
            "edge 'e5' has a blank to_node_id",
            "edge 'e6' routes into intake node 'in'; intake nodes are entry points and accept no"
                + " incoming edges");
  }

  // ---- EdgeSettings ----
  @Test
  void edgeSettings_negativeMaxHopsAndDuplicateLinks() {
    PipelineGraph graph =
        linear("g", 1).toBuilder()
            .setEdges(0, edge("e1", "in", "parse").toBuilder().setMaxHops(-1))
            .addEdges(edge("e1b", "in", "parse"))
            .build();
    assertThat(of(draft(graph), "EdgeSettings"))
        .extracting(ValidationViolation::getMessage)
        .containsExactly(
            "edge 'e1' has negative max_hops (-1); use 0 for the graph default",
            "edge 'e1b' repeats another edge from 'in' to 'parse' with the same condition; the"
                + " document would be delivered to 'parse' twice");
  }

  // ---- NoCycles ----
  @Test
  void noCycles_reportsEveryElementaryCycleWithItsEdges() {
    // Two cycles sharing node b: a->b->a and b->c->b, plus a self-loop on d.
    PipelineGraph graph =
        PipelineGraph.newBuilder()
            .setGraphId("g")
            .setVersion(1)
            .addNodes(intake("in", "ds-1"))
            .addNodes(processor("a", "m"))
            .addNodes(processor("b", "m"))
            .addNodes(processor("c", "m"))
            .addNodes(processor("d", "m"))
            .addEdges(edge("in-a", "in", "a"))
            .addEdges(edge("ab", "a", "b"))
            .addEdges(edge("ba", "b", "a"))
            .addEdges(edge("bc", "b", "c"))
            .addEdges(edge("cb", "c", "b"))
            .addEdges(edge("cd", "c", "d"))
            .addEdges(edge("dd", "d", "d"))
            .build();
    List<ValidationViolation> v = of(draft(graph), "NoCycles");
    assertThat(v)
        .extracting(ValidationViolation::getMessage)
        .containsExactlyInAnyOrder(
            "cycle a -> b -> a (edges ab, ba); a pipeline must be acyclic: remove or redirect one"
                + " of these edges",
            "cycle b -> c -> b (edges bc, cb); a pipeline must be acyclic: remove or redirect one"
                + " of these edges",
            "cycle d -> d (edges dd); a pipeline must be acyclic: remove or redirect one of these"
                + " edges");
    assertThat(v)
        .filteredOn(x -> x.getNodeId().equals("d"))
        .singleElement()
        .extracting(ValidationViolation::getEdgeId)
        .isEqualTo("dd");
  }

  @Test
  void noCycles_findsAllCyclesOfACompleteGraph() {
    // K4 has 20 elementary cycles (6 of length 2, 8 of length 3, 6 of length 4).
    PipelineGraph.Builder graph = PipelineGraph.newBuilder().setGraphId("g");
    List<String> ids = List.of("p", "q", "r", "s");
    ids.forEach(id -> graph.addNodes(processor(id, "m")));
    for (String from : ids) {
      for (String to : ids) {
        if (!from.equals(to)) {
          graph.addEdges(edge(from + to, from, to));
        }
      }
    }
    assertThat(of(draft(graph.build()), "NoCycles")).hasSize(20);
  }

  @Test
  void noCycles_acyclicDiamondHasNone() {
    PipelineGraph graph =
        linear("g", 1).toBuilder()
            .addNodes(processor("alt", "m"))
            .addEdges(edge("e4", "parse", "alt"))
            .addEdges(edge("e5", "alt", "index"))
            .build();
    assertThat(of(draft(graph), "NoCycles")).isEmpty();
  }

  // ---- IntakePresence ----
  @Test
  void intakePresence_noIntakeAndIntakeWithoutDatasource() {
    PipelineGraph none =
        PipelineGraph.newBuilder().setGraphId("g").addNodes(processor("p", "parser")).build();
    assertThat(of(draft(none), "IntakePresence"))
        .extracting(ValidationViolation::getMessage)
        .containsExactly(
            "graph 'g' has no INTAKE node, so no document can ever enter it; add an intake node"
                + " bound to a datasource");
    PipelineGraph blank = linear("g", 1).toBuilder().setNodes(0, intake("in", "")).build();
    assertThat(of(draft(blank), "IntakePresence"))
        .singleElement()
        .satisfies(
            v -> {
              assertThat(v.getNodeId()).isEqualTo("in");
              assertThat(v.getMessage())
                  .isEqualTo(
                      "intake node 'in' has no datasource_id: the datasource is what subscribes"
                          + " this graph to documents");
            });
  }

  // ---- DuplicateIntakeDatasource ----
  @Test
  void duplicateIntakeDatasource_secondIntakeOnTheSameDatasource() {
    PipelineGraph graph =
        linear("g", 1).toBuilder()
            .addNodes(intake("in2", "ds-1"))
            .addEdges(edge("e9", "in2", "parse"))
            .build();
    assertThat(of(draft(graph), "DuplicateIntakeDatasource"))
        .singleElement()
        .satisfies(
            v -> {
              assertThat(v.getNodeId()).isEqualTo("in2");
              assertThat(v.getMessage())
                  .isEqualTo(
                      "intake node 'in2' binds datasource 'ds-1', already bound by intake node"
                          + " 'in'; each document would be admitted twice");
            });
  }

  // ---- OrphanNode ----
  @Test
  void orphanNode_unreachableNodes() {
    PipelineGraph graph =
        linear("g", 1).toBuilder()
            .addNodes(processor("lonely", "m"))
            .addNodes(processor("island", "m"))
            .addNodes(processor("island2", "m"))
            .addEdges(edge("i", "island", "island2"))
            .build();
    assertThat(of(draft(graph), "OrphanNode"))
        .extracting(ValidationViolation::getMessage)
        .containsExactly(
            "node 'lonely' is not reachable from any intake node, so no document can ever reach it",
            "node 'island' is not reachable from any intake node, so no document can ever reach it",
            "node 'island2' is not reachable from any intake node, so no document can ever reach"
                + " it");
  }

  // ---- CelExpression ----
  @Test
  void celExpression_everyBrokenExpressionWithFieldAndPosition() {
    PipelineGraph graph =
        linear("g", 1).toBuilder()
            .setEdges(
                1, edge("e2", "parse", "chunk", "document.search_metadata.langauge == 'en'", 0))
            .setNodes(
                2,
                processor("chunk", "chunker").toBuilder()
                    .addFilterConditions(
                        FilterCondition.newBuilder().setCondition("metadata.hop_count <"))
                    .addPostMappings(
                        ProcessingMapping.newBuilder()
                            .setMappingType(MappingType.MAPPING_TYPE_CEL)
                            .setTargetFieldPath("search_metadata.title")
                            .setCelExpression("nope + 1")))
            .build();
    List<ValidationViolation> v = of(draft(graph), "CelExpression");
    assertThat(v).hasSize(3);
    assertThat(v.get(0).getEdgeId()).isEqualTo("e2");
    assertThat(v.get(0).getField()).isEqualTo("edges[1].condition");
    assertThat(v.get(0).getPosition()).isEqualTo(24);
    assertThat(v.get(0).getMessage())
        .startsWith(
            "edge 'e2' edges[1].condition 'document.search_metadata.langauge == 'en'' does not"
                + " compile at position 24: ")
        .contains("langauge");
    assertThat(v.get(1).getNodeId()).isEqualTo("chunk");
    assertThat(v.get(1).getField()).isEqualTo("nodes[2].filter_conditions[0].condition");
    assertThat(v.get(1).getPosition()).as("end of input").isEqualTo(20);
    assertThat(v.get(2).getField()).isEqualTo("nodes[2].post_mappings[0].cel_expression");
    assertThat(v.get(2).getMessage()).contains("undeclared reference to 'nope'");
  }

  // ---- Mapping ----
  @Test
  void mapping_shapeAndPaths() {
    PipelineGraph graph =
        linear("g", 1).toBuilder()
            .setNodes(
                1,
                processor("parse", "parser").toBuilder()
                    .addPreMappings(
                        ProcessingMapping.newBuilder()
                            .setMappingId("m0")
                            .setMappingType(MappingType.MAPPING_TYPE_DIRECT)
                            .setTargetFieldPath("search_metadata.title"))
                    .addPreMappings(
                        ProcessingMapping.newBuilder()
                            .setMappingType(MappingType.MAPPING_TYPE_CEL)
                            .setTargetFieldPath("search_metadata.titel"))
                    .addPreMappings(
                        ProcessingMapping.newBuilder()
                            .setMappingType(MappingType.MAPPING_TYPE_AGGREGATE)
                            .addSourceFieldPaths("parsed_metadata.x")
                            .setTargetFieldPath("search_metadata.body")))
            .build();
    assertThat(of(draft(graph), "Mapping"))
        .extracting(ValidationViolation::getMessage)
        .containsExactly(
            "node 'parse' pre_mappings[0] ('m0') is DIRECT and needs exactly one source_field_path,"
                + " has 0",
            "node 'parse' pre_mappings[1] is CEL and needs a cel_expression",
            "node 'parse' pre_mappings[1]: field path 'search_metadata.titel': SearchMetadata has"
                + " no field 'titel'",
            "node 'parse' pre_mappings[2]: field path 'parsed_metadata.x': 'parsed_metadata' is a"
                + " map field; map entries are not addressable by mappings");
  }

  // ---- MemoryEdges ----
  @Test
  void memoryEdges_warnsButDoesNotInvalidate() {
    PipelineGraph.Builder graph =
        linear("g", 1).toBuilder()
            .setEdges(
                0,
                edge("e1", "in", "parse").toBuilder()
                    .setTransportType(TransportType.TRANSPORT_TYPE_MEMORY));
    for (int i = 0; i < 6; i++) {
      graph
          .addNodes(processor("f" + i, "m"))
          .addEdges(
              GraphEdge.newBuilder()
                  .setEdgeId("m" + i)
                  .setFromNodeId("parse")
                  .setToNodeId("f" + i)
                  .setTransportType(TransportType.TRANSPORT_TYPE_MEMORY));
    }
    ValidationResult result = draft(graph.build());
    List<ValidationViolation> v = of(result, "MemoryEdges");
    assertThat(v)
        .extracting(ValidationViolation::getSeverity)
        .containsOnly(Severity.SEVERITY_WARNING);
    assertThat(v)
        .extracting(ValidationViolation::getMessage)
        .containsExactlyInAnyOrder(
            "edge 'e1' leaves intake node 'in' on MEMORY: the first hop will have no replayable"
                + " copy",
            "node 'parse' fans out on 6 MEMORY edges: their inline copies share one hop budget of"
                + " 204800 bytes of stream JSON (about 34133 each); a copy past what is left ducks"
                + " to CACHE, never PERSIST, and a right-to-be-forgotten document is rejected"
                + " instead");
    assertThat(result.getValid()).isTrue();
  }

  @Test
  void memoryEdges_theFanOutWarningStartsWhereTwoCopiesShareTheInlineBudget() {
    PipelineGraph.Builder graph = linear("g", 1).toBuilder();
    graph
        .addNodes(processor("f0", "m"))
        .addEdges(
            GraphEdge.newBuilder()
                .setEdgeId("m0")
                .setFromNodeId("parse")
                .setToNodeId("f0")
                .setTransportType(TransportType.TRANSPORT_TYPE_MEMORY));
    assertThat(of(draft(graph.build()), "MemoryEdges"))
        .as("one copy has the budget alone")
        .isEmpty();

    graph
        .addNodes(processor("f1", "m"))
        .addEdges(
            GraphEdge.newBuilder()
                .setEdgeId("m1")
                .setFromNodeId("parse")
                .setToNodeId("f1")
                .setTransportType(TransportType.TRANSPORT_TYPE_MEMORY));
    assertThat(of(draft(graph.build()), "MemoryEdges"))
        .singleElement()
        .satisfies(
            v -> {
              assertThat(v.getNodeId()).isEqualTo("parse");
              assertThat(v.getMessage())
                  .startsWith(
                      "node 'parse' fans out on 2 MEMORY edges: their inline copies share one"
                          + " hop budget of 204800 bytes of stream JSON (about 102400 each)");
            });
  }

  // ---- Tenancy ----
  @Test
  void tenancy_onlyFromDesignUp() {
    PipelineGraph graph =
        linear("g", 1).toBuilder()
            .addNodes(intake("in2", "ds-other"))
            .addNodes(intake("in3", "ds-unknown"))
            .addEdges(edge("x2", "in2", "parse"))
            .addEdges(edge("x3", "in3", "parse"))
            .build();
    assertThat(of(draft(graph), "Tenancy")).isEmpty();
    ValidationResult design = VALIDATOR.validate(graph, ValidationMode.VALIDATION_MODE_DESIGN);
    assertThat(of(design, "Tenancy"))
        .extracting(ValidationViolation::getMessage)
        .containsExactly(
            "intake node 'in2' binds datasource 'ds-other' of account 'globex', but the graph"
                + " belongs to 'acme' and 'globex' has not granted it to 'acme'",
            "intake node 'in3' binds datasource 'ds-unknown', which is not registered");
    PipelineGraph ownerless = linear("g", 1).toBuilder().clearAccountId().build();
    assertThat(of(VALIDATOR.validate(ownerless, ValidationMode.VALIDATION_MODE_DESIGN), "Tenancy"))
        .extracting(ValidationViolation::getMessage)
        .containsExactly(
            "graph 'g' has no account_id; DESIGN and PRODUCTION graphs must name the account that"
                + " owns them");
  }

  @Test
  void tenancy_anotherAccountsDatasourceIsAcceptedOnlyWhileItsOwnerGrantsIt() {
    java.util.Set<String> grants = new java.util.HashSet<>(java.util.Set.of("ds-other>acme"));
    TenancyDirectory directory =
        new TenancyDirectory() {
          @Override
          public Optional<String> datasourceAccount(String datasourceId) {
            return TENANCY.datasourceAccount(datasourceId);
          }

          @Override
          public boolean granted(String datasourceId, String accountId) {
            return grants.contains(datasourceId + ">" + accountId);
          }
        };
    GraphValidator validator = GraphValidator.standard(CEL, directory);
    PipelineGraph graph =
        linear("g", 1).toBuilder()
            .addNodes(intake("in2", "ds-other"))
            .addEdges(edge("x2", "in2", "parse"))
            .build();
    assertThat(of(validator.validate(graph, ValidationMode.VALIDATION_MODE_DESIGN), "Tenancy"))
        .as("granted by globex")
        .isEmpty();

    grants.clear();
    assertThat(of(validator.validate(graph, ValidationMode.VALIDATION_MODE_DESIGN), "Tenancy"))
        .singleElement()
        .satisfies(
            v -> {
              assertThat(v.getNodeId()).isEqualTo("in2");
              assertThat(v.getMessage()).endsWith("'globex' has not granted it to 'acme'");
            });
  }

  // ---- SinkRequiresPlans ----
  @Test
  void sinkRequiresPlans_onlyInProduction() {
    PipelineGraph graph = linear("g", 1).toBuilder().setNodes(3, sink("index")).build();
    assertThat(
            of(
                VALIDATOR.validate(graph, ValidationMode.VALIDATION_MODE_DESIGN),
                "SinkRequiresPlans"))
        .isEmpty();
    ValidationResult production =
        VALIDATOR.validate(graph, ValidationMode.VALIDATION_MODE_PRODUCTION);
    assertThat(production.getValid()).isFalse();
    assertThat(of(production, "SinkRequiresPlans"))
        .singleElement()
        .satisfies(
            v -> {
              assertThat(v.getNodeId()).isEqualTo("index");
              assertThat(v.getMessage())
                  .isEqualTo(
                      "sink node 'index' has no index_plan_ids; a PRODUCTION sink must name the"
                          + " index plans it writes");
            });
  }

  // ---- IndexPlanProducible ----
  @Test
  void indexPlanProducible_refusesUnknownPlansAndPlansOfAnotherModuleNamingNodeAndPlan() {
    PipelineGraph graph =
        linear("g", 1).toBuilder()
            .setNodes(3, sink("index", "plan-1", "ghost", "lucene-1"))
            .build();
    assertThat(
            of(
                VALIDATOR.validate(graph, ValidationMode.VALIDATION_MODE_DESIGN),
                "IndexPlanProducible"))
        .as("only PRODUCTION asks the registry")
        .isEmpty();

    ValidationResult production =
        VALIDATOR.validate(graph, ValidationMode.VALIDATION_MODE_PRODUCTION);

    assertThat(production.getValid()).isFalse();
    assertThat(of(production, "IndexPlanProducible"))
        .allSatisfy(v -> assertThat(v.getNodeId()).isEqualTo("index"))
        .extracting(ValidationViolation::getMessage)
        .containsExactly(
            "sink node 'index' names index plan 'ghost', which no sink module has declared",
            "sink node 'index' names index plan 'lucene-1', which module 'index-sink' produces,"
                + " but the node runs module 'opensearch-sink'");
  }

  @Test
  void indexPlanProducible_withNoRegistryEveryPlanIsUnknown() {
    ValidationResult production =
        GraphValidator.standard(CEL, TENANCY)
            .validate(linear("g", 1), ValidationMode.VALIDATION_MODE_PRODUCTION);
    assertThat(of(production, "IndexPlanProducible"))
        .extracting(ValidationViolation::getMessage)
        .containsExactly(
            "sink node 'index' names index plan 'plan-1', which no sink module has declared");
  }
}
