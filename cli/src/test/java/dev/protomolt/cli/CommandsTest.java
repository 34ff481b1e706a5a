package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.protomolt.localstack.cloud.LocalCloudSettings;
import dev.protomolt.proto.config.v1.GraphEdge;
import dev.protomolt.proto.config.v1.PipelineGraph;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every client command against the shared running platform (local cloud, engine, gateway, sample
 * modules) on free fixed ports, as a user would run them beside {@code protomolt up}.
 */
@ExtendWith(SharedPlatform.Resolver.class)
class CommandsTest {

  static final String ACCOUNT = "acme";

  static Path data;
  static LocalPlatform platform;
  static String gateway;
  static String gatewayCa;

  @TempDir Path files;

  @BeforeAll
  static void provision(SharedPlatform shared) {
    platform = shared.platform();
    data = shared.data();
    gateway = shared.gateway();
    gatewayCa = shared.gatewayCa();
    platform.provisionAccount(ACCOUNT, "docs", "drafts", "notes");
  }

  static CommandRun run(String... args) {
    return CommandRun.of(args);
  }

  @Test
  void envPrintsWhatTheRunningPlatformServesFromTheSettingsAlone() {
    CommandRun env =
        run(
            "env",
            "--data",
            data.toString(),
            "--gateway-port",
            Integer.toString(platform.gatewayPort()),
            "--plain");
    assertThat(env.status()).as("%s", env).isZero();
    Map<String, String> printed = new LinkedHashMap<>();
    env.out()
        .lines()
        .forEach(l -> printed.put(l.substring(0, l.indexOf('=')), l.substring(l.indexOf('=') + 1)));
    assertThat(printed).containsExactlyInAnyOrderEntriesOf(platform.environment());
    assertThat(printed)
        .containsKeys(
            "AWS_ENDPOINT_URL_S3",
            "AWS_ENDPOINT_URL_SFN",
            "AWS_ENDPOINT_URL_DYNAMODB",
            "AWS_ENDPOINT_URL_LAMBDA",
            "AWS_REGION",
            "AWS_ACCESS_KEY_ID",
            "AWS_SECRET_ACCESS_KEY",
            "PROTOMOLT_JDBC_URL",
            "PROTOMOLT_JDBC_USER",
            "PROTOMOLT_KAFKA_BOOTSTRAP",
            "PROTOMOLT_GATEWAY",
            // The gateway is behind its TLS front; clients trust this CA (decision 1745).
            "PROTOMOLT_GATEWAY_CA",
            // The gateway the CLI's and modules' tokens are signed for (decision 1511).
            "PROTOMOLT_GATEWAY_AUDIENCE",
            "PROTOMOLT_INTAKE_BUCKET",
            "PROTOMOLT_STORE_BUCKET",
            // What an outside client signs its gateway calls with (decision 1742).
            "AWS_ENDPOINT_URL_STS",
            // Where modules and tools run from the shell send their spans (decision 1794).
            "OTEL_EXPORTER_OTLP_ENDPOINT",
            "PROTOMOLT_OPERATOR_ACCESS_KEY_ID",
            "PROTOMOLT_OPERATOR_SECRET_ACCESS_KEY");

    CommandRun exports = run("env", "--data", data.toString());
    assertThat(exports.out().lines()).allMatch(l -> l.startsWith("export ") && l.endsWith(";"));
    assertThat(exports.out())
        .contains("export AWS_ENDPOINT_URL_S3=" + platform.endpoints().s3() + ";")
        // The AWS CLI finds the functions on the running platform's own Lambda API.
        .contains(
            "export AWS_ENDPOINT_URL_LAMBDA=" + platform.endpoints().lambda().orElseThrow() + ";");
  }

  @Test
  void aGraphGoesThroughItsWholeLifecycle() throws Exception {
    PipelineGraph graph =
        DemoGraph.of(ACCOUNT, "drafts", LocalPlatform.CLUSTER).toBuilder()
            .setGraphId("articles")
            .setName("articles")
            .build();
    Path file = files.resolve("articles.json");
    Files.writeString(file, GraphFile.json(graph));

    CommandRun valid =
        run("graph", "validate", file.toString(), "--gateway", gateway, "--gateway-ca", gatewayCa);
    assertThat(valid.status()).as("%s", valid).isZero();
    assertThat(valid.out()).contains("graph 'articles': valid at DESIGN level (0 violations)");

    CommandRun applied =
        run("graph", "apply", file.toString(), "--gateway", gateway, "--gateway-ca", gatewayCa);
    assertThat(applied.status()).as("%s", applied).isZero();
    assertThat(applied.out())
        .contains("graph 'articles' version 1 stored and active (arn:aws:states:");
    CommandRun again =
        run("graph", "apply", file.toString(), "--gateway", gateway, "--gateway-ca", gatewayCa);
    assertThat(again.out())
        .as("%s", again)
        .contains("graph 'articles' version 2 stored and active");

    CommandRun list = run("graph", "list", "--gateway", gateway, "--gateway-ca", gatewayCa);
    assertThat(list.status()).as("%s", list).isZero();
    assertThat(list.out()).containsPattern("articles\\s+2\\s+yes\\s+5\\s+4\\s+articles");
    CommandRun versions =
        run("graph", "list", "articles", "--gateway", gateway, "--gateway-ca", gatewayCa);
    assertThat(versions.out())
        .containsPattern("articles\\s+1\\s+no")
        .containsPattern("articles\\s+2\\s+yes");

    CommandRun shown =
        run(
            "graph",
            "show",
            "articles",
            "--version",
            "1",
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa);
    assertThat(shown.status()).as("%s", shown).isZero();
    assertThat(new ObjectMapper().readTree(shown.out()).path("version").asText()).isEqualTo("1");
    assertThat(GraphFile.read(write("shown.json", shown.out())).getNodesCount()).isEqualTo(5);

    CommandRun asl =
        run("graph", "asl", "articles", "--gateway", gateway, "--gateway-ca", gatewayCa);
    assertThat(asl.status()).as("%s", asl).isZero();
    assertThat(new ObjectMapper().readTree(asl.out()).has("States")).isTrue();

    CommandRun rollback =
        run(
            "graph",
            "activate",
            "articles",
            "--version",
            "1",
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa);
    assertThat(rollback.out()).as("%s", rollback).contains("graph 'articles' version 1 is active");
    CommandRun busy =
        run(
            "graph",
            "delete",
            "articles",
            "--version",
            "1",
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa);
    assertThat(busy.status()).as("the active version cannot be deleted: %s", busy).isEqualTo(1);
    assertThat(busy.err()).contains("deleting graph 'articles' version 1: refused");

    CommandRun off =
        run("graph", "deactivate", "articles", "--gateway", gateway, "--gateway-ca", gatewayCa);
    assertThat(off.out()).as("%s", off).contains("graph 'articles' deactivated (was version 1)");
    CommandRun deleted =
        run(
            "graph",
            "delete",
            "articles",
            "--version",
            "2",
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa);
    assertThat(deleted.out()).as("%s", deleted).contains("graph 'articles' version 2 deleted");
    CommandRun gone =
        run(
            "graph",
            "show",
            "articles",
            "--version",
            "2",
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa);
    assertThat(gone.status()).isEqualTo(1);
    assertThat(gone.err()).contains("not found");
  }

  @Test
  void aslPrintsTheDeployedDefinitionOrSaysTheVersionWasNeverActivated() throws Exception {
    Path file =
        write(
            "asl-demo.json",
            GraphFile.json(
                DemoGraph.of(ACCOUNT, "drafts", LocalPlatform.CLUSTER).toBuilder()
                    .setGraphId("asl-demo")
                    .setName("asl-demo")
                    .build()));
    assertThat(
            run(
                    "graph",
                    "apply",
                    file.toString(),
                    "--inactive",
                    "--gateway",
                    gateway,
                    "--gateway-ca",
                    gatewayCa)
                .out())
        .contains("graph 'asl-demo' version 1 stored, not active");

    CommandRun template =
        run(
            "graph",
            "asl",
            "asl-demo",
            "--version",
            "1",
            "--data",
            data.toString(),
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa);
    assertThat(template.status()).as("%s", template).isZero();
    assertThat(template.err())
        .contains("graph 'asl-demo' version 1 was never activated")
        .contains("compiled template");
    assertThat(template.out()).contains("${PrepareFunctionArn}");
    assertThat(new ObjectMapper().readTree(template.out()).has("States")).isTrue();

    CommandRun applied =
        run("graph", "apply", file.toString(), "--gateway", gateway, "--gateway-ca", gatewayCa);
    Matcher arn =
        Pattern.compile("version 2 stored and active \\((arn:aws:states:[^)]+)\\)")
            .matcher(applied.out());
    assertThat(arn.find()).as("%s", applied).isTrue();
    CommandRun deployed =
        run(
            "graph",
            "asl",
            "asl-demo",
            "--data",
            data.toString(),
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa);
    assertThat(deployed.status()).as("%s", deployed).isZero();
    assertThat(deployed.err()).isEmpty();
    assertThat(deployed.out()).doesNotContain("${");
    String described =
        platform
            .stepFunctions()
            .describeStateMachine(b -> b.stateMachineArn(arn.group(1)))
            .definition();
    assertThat(new ObjectMapper().readTree(deployed.out()))
        .isEqualTo(new ObjectMapper().readTree(described));

    // Version 1 stays a template: activating version 2 never published it.
    assertThat(
            run(
                    "graph",
                    "asl",
                    "asl-demo",
                    "--version",
                    "1",
                    "--data",
                    data.toString(),
                    "--gateway",
                    gateway,
                    "--gateway-ca",
                    gatewayCa)
                .out())
        .contains("${DispatchFunctionArn}");
    assertThat(
            run("graph", "deactivate", "asl-demo", "--gateway", gateway, "--gateway-ca", gatewayCa)
                .status())
        .isZero();
  }

  @Test
  void aDeployedDefinitionThatCannotBeReadNamesTheAddressOrTheArn() {
    LocalCloudSettings here = LocalCloudSettings.fromSystemProperties().withDataDir(data);
    int nobody = LocalPorts.free();
    LocalCloudSettings elsewhere =
        new LocalCloudSettings(
            here.dataDir(),
            here.region(),
            here.accessKeyId(),
            here.secretAccessKey(),
            here.buckets(),
            here.s3Port(),
            here.postgresPort(),
            here.kafkaPort(),
            here.kafkaControllerPort(),
            here.dynamoDbPort(),
            nobody);
    String arn = "arn:aws:states:us-east-1:000000000000:stateMachine:never-deployed:7";
    assertThatThrownBy(() -> DeployedDefinition.read(elsewhere, arn))
        .isInstanceOfSatisfying(
            CommandFailure.class,
            f -> assertThat(f.exitCode()).isEqualTo(CommandFailure.UNREACHABLE))
        .hasMessageContaining("no local Step Functions at http://127.0.0.1:" + nobody)
        .hasMessageContaining("protomolt up --data");
    assertThatThrownBy(() -> DeployedDefinition.read(here, arn))
        .isInstanceOfSatisfying(
            CommandFailure.class, f -> assertThat(f.exitCode()).isEqualTo(CommandFailure.REFUSED))
        .hasMessageContaining(arn)
        .hasMessageContaining("cannot be described");
  }

  @Test
  void aYamlGraphFileIsAppliedLikeItsJsonForm() {
    CommandRun applied =
        run(
            "graph",
            "apply",
            write(
                    "notes.yaml",
                    """
                    graphId: notes
                    clusterId: local
                    accountId: acme
                    name: notes
                    nodes:
                      - {nodeId: intake, name: intake, nodeType: NODE_TYPE_INTAKE, datasourceId: notes}
                      - {nodeId: parse, name: parse, nodeType: NODE_TYPE_SINK, moduleId: parser}
                    edges:
                      - {edgeId: intake-parse, fromNodeId: intake, toNodeId: parse, transportType: TRANSPORT_TYPE_PERSIST}
                    """)
                .toString(),
            "--inactive",
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa);
    assertThat(applied.status()).as("%s", applied).isZero();
    assertThat(applied.out()).contains("graph 'notes' version 1 stored, not active");
  }

  @Test
  void anInvalidGraphPrintsEveryViolationWithItsRuleAndFieldAndAppliesNothing() {
    PipelineGraph bad =
        DemoGraph.of(ACCOUNT, "ghost-source", LocalPlatform.CLUSTER).toBuilder()
            .setGraphId("broken")
            .addEdges(
                GraphEdge.newBuilder()
                    .setEdgeId("to-nowhere")
                    .setFromNodeId(DemoGraph.INDEX)
                    .setToNodeId("nowhere"))
            .build();
    Path file = write("broken.json", GraphFile.json(bad));

    CommandRun validated =
        run("graph", "validate", file.toString(), "--gateway", gateway, "--gateway-ca", gatewayCa);
    assertThat(validated.status()).as("%s", validated).isEqualTo(1);
    assertThat(validated.out())
        .contains("graph 'broken': invalid")
        .contains("ghost-source")
        .contains("nowhere");
    assertThat(validated.out().lines().filter(l -> l.startsWith("ERROR rule=")).count())
        .as("%s", validated)
        .isGreaterThanOrEqualTo(2);

    CommandRun applied =
        run("graph", "apply", file.toString(), "--gateway", gateway, "--gateway-ca", gatewayCa);
    assertThat(applied.status()).isEqualTo(1);
    assertThat(applied.out()).contains("is invalid: nothing applied");
    assertThat(
            run("graph", "show", "broken", "--gateway", gateway, "--gateway-ca", gatewayCa)
                .status())
        .as("nothing was stored")
        .isEqualTo(1);
  }

  @Test
  void unreadableGraphFilesAreRefusedNamingTheFileAndTheProblem() {
    CommandRun missing =
        run(
            "graph",
            "apply",
            files.resolve("absent.json").toString(),
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa);
    assertThat(missing.status()).isEqualTo(1);
    assertThat(missing.err()).contains("FILE: ").contains("absent.json does not exist");

    CommandRun notJson =
        run(
            "graph",
            "validate",
            write("junk.json", "{ nodes: [").toString(),
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa);
    assertThat(notJson.status()).isEqualTo(1);
    assertThat(notJson.err()).contains("junk.json is not a PipelineGraph in protobuf JSON form");

    CommandRun misspelt =
        run(
            "graph",
            "validate",
            write("typo.json", "{\"graphIdd\": \"x\"}").toString(),
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa);
    assertThat(misspelt.status()).isEqualTo(1);
    assertThat(misspelt.err()).contains("graphIdd");
  }

  @Test
  void anUnknownGraphIsReportedAsNotFound() {
    CommandRun shown =
        run("graph", "show", "no-such-graph", "--gateway", gateway, "--gateway-ca", gatewayCa);
    assertThat(shown.status()).isEqualTo(1);
    assertThat(shown.err()).contains("graph 'no-such-graph': not found");
    CommandRun activated =
        run(
            "graph",
            "activate",
            "no-such-graph",
            "--version",
            "3",
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa);
    assertThat(activated.status()).isEqualTo(1);
    assertThat(activated.err()).contains("not found");
  }

  @Test
  void withoutARunningPlatformTheCommandSaysHowToStartOne() {
    String nobody = "127.0.0.1:" + LocalPorts.free();
    CommandRun list = run("graph", "list", "--gateway", nobody);
    assertThat(list.status()).as("%s", list).isEqualTo(CommandFailure.UNREACHABLE);
    assertThat(list.err())
        .contains("no local cloud on " + nobody)
        .contains("start it with `protomolt up --data DIR`");
    CommandRun doc = run("doc", "get", "x", "--account", ACCOUNT, "--gateway", nobody);
    assertThat(doc.status()).isEqualTo(CommandFailure.UNREACHABLE);
  }

  @Test
  void ingestedFilesTravelThePipelineAndCanBeReadAndFound() throws Exception {
    Path folder = Files.createDirectories(files.resolve("corpus/sub"));
    Files.writeString(
        files.resolve("corpus/keepers.txt"),
        "Lighthouse keepers\n\nThe lamp at" + " Skerryvore was trimmed twice before dawn.\n");
    Files.writeString(
        folder.resolve("harbour.md"),
        "# Harbour\n\nThe breakwater at Peterhead" + " shelters the fleet.\n");
    // Only blanks: the parser rejects it, so the per-node table shows two nodes.
    Files.writeString(folder.resolve("blank.txt"), "  \n\n\t\n");
    assertThat(
            run(
                    "graph",
                    "apply",
                    write(
                            "pipeline.json",
                            GraphFile.json(
                                DemoGraph.of(ACCOUNT, "docs", LocalPlatform.CLUSTER).toBuilder()
                                    .setGraphId("pipeline")
                                    .build()))
                        .toString(),
                    "--gateway",
                    gateway,
                    "--gateway-ca",
                    gatewayCa)
                .status())
        .isZero();

    CommandRun ingest =
        run(
            "ingest",
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa,
            files.resolve("corpus").toString(),
            "--recursive",
            "--account",
            ACCOUNT,
            "--datasource",
            "docs",
            "--wait",
            "--data",
            data.toString(),
            "--timeout-seconds",
            "120");
    assertThat(ingest.status()).as("%s", ingest).isZero();
    assertThat(ingest.out())
        .contains("uploaded 3 files")
        .contains("s3://" + LocalPlatform.INTAKE_BUCKET + "/acme/docs/")
        .contains("dispositions: {REJECTED=1, SINK_REACHED=2}")
        .contains("sub/harbour.md")
        .containsPattern("sub/blank\\.txt\\s+REJECTED");
    // Dispositions per node, from the executions' outputs: two at the sink, one at the parser.
    assertThat(ingest.out())
        .contains("dispositions per node:")
        .containsPattern("\\n  pipeline\\s+" + DemoGraph.INDEX + "\\s+SINK_REACHED\\s+2\\n")
        .containsPattern("\\n  pipeline\\s+" + DemoGraph.PARSE + "\\s+REJECTED\\s+1\\n")
        .containsPattern("\\n  total\\s+all\\s+3\\n");
    // Not a terminal, so the progress is plain lines ending at the full count.
    assertThat(ingest.out()).contains("processing [##############################] 3/3 100%");

    Matcher id = Pattern.compile("(\\S+)\\s+keepers\\.txt").matcher(ingest.out());
    assertThat(id.find()).as("%s", ingest).isTrue();
    String docId = id.group(1);

    CommandRun doc =
        run(
            "doc",
            "get",
            docId,
            "--account",
            ACCOUNT,
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa);
    assertThat(doc.status()).as("%s", doc).isZero();
    assertThat(new ObjectMapper().readTree(doc.out()).path("docId").asText()).isEqualTo(docId);

    Path out = files.resolve("at-sink.json");
    CommandRun atSink =
        run(
            "doc",
            "get",
            docId,
            "--account",
            ACCOUNT,
            "--graph",
            "pipeline",
            "--node",
            DemoGraph.INDEX,
            "--part",
            "core",
            "--out",
            out.toString(),
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa);
    assertThat(atSink.status()).as("%s", atSink).isZero();
    assertThat(Files.readString(out)).contains("Skerryvore");

    CommandRun manifest =
        run(
            "doc",
            "manifest",
            docId,
            "--account",
            ACCOUNT,
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa);
    assertThat(manifest.status()).as("%s", manifest).isZero();
    assertThat(manifest.out()).contains(docId).contains("PIPE_DOC_PART_");

    CommandRun search = run("search", "Skerryvore", "--data", data.toString());
    assertThat(search.status()).as("%s", search).isZero();
    assertThat(search.out()).contains(docId).containsIgnoringCase("keepers");
    CommandRun miss = run("search", "zeppelin", "--data", data.toString());
    assertThat(miss.out()).contains("no hits for \"zeppelin\"");
  }

  @Test
  void badIngestInputsAreRefusedBeforeAnythingIsUploaded() throws Exception {
    CommandRun missing =
        run(
            "ingest",
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa,
            files.resolve("nope.txt").toString(),
            "--account",
            ACCOUNT,
            "--datasource",
            "docs",
            "--data",
            data.toString());
    assertThat(missing.status()).isEqualTo(1);
    assertThat(missing.err())
        .contains("PATH: ")
        .contains("nope.txt does not exist; nothing was uploaded");

    Files.createDirectories(files.resolve("folder"));
    CommandRun folder =
        run(
            "ingest",
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa,
            files.resolve("folder").toString(),
            "--account",
            ACCOUNT,
            "--datasource",
            "docs",
            "--data",
            data.toString());
    assertThat(folder.err()).contains("is a directory; pass --recursive");

    CommandRun unbound =
        run(
            "ingest",
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa,
            write("a.txt", "hello").toString(),
            "--account",
            ACCOUNT,
            "--datasource",
            "unprovisioned",
            "--data",
            data.toString());
    assertThat(unbound.status()).isEqualTo(1);
    assertThat(unbound.err())
        .contains("--datasource: 'unprovisioned' is not provisioned")
        .contains("protomolt up --data")
        .contains("--account acme:unprovisioned");

    CommandRun foreign =
        run(
            "ingest",
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa,
            write("b.txt", "hello").toString(),
            "--account",
            "other",
            "--datasource",
            "docs",
            "--data",
            data.toString());
    assertThat(foreign.err()).contains("'docs' belongs to account 'acme', not 'other'");

    CommandRun badAccount =
        run(
            "ingest",
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa,
            write("c.txt", "x").toString(),
            "--account",
            "_x",
            "--datasource",
            "docs",
            "--data",
            data.toString());
    assertThat(badAccount.status()).isEqualTo(2);
    assertThat(badAccount.err()).contains("--account: accountId: must be non-blank");
  }

  @Test
  void ingestWithoutARunningPlatformSaysHowToStartOne() {
    // The datasource check is the first call and goes to the gateway's runs door (decision 1523).
    String nobody = "127.0.0.1:" + LocalPorts.free();
    CommandRun ingest =
        run(
            "ingest",
            write("d.txt", "x").toString(),
            "--account",
            ACCOUNT,
            "--datasource",
            "docs",
            "--data",
            data.toString(),
            "--gateway",
            nobody);
    assertThat(ingest.status()).as("%s", ingest).isEqualTo(CommandFailure.UNREACHABLE);
    assertThat(ingest.err())
        .contains("no local cloud on " + nobody)
        .contains("start it with `protomolt up --data ");
  }

  @Test
  void aProductionGraphIsAppliedOnlyWhenItsSinkNamesPlansItsModuleDeclared() throws Exception {
    PipelineGraph production =
        DemoGraph.of(ACCOUNT, "drafts", LocalPlatform.CLUSTER).toBuilder()
            .setGraphId("prod-articles")
            .setName("prod-articles")
            .setMode(dev.protomolt.proto.config.v1.GraphMode.GRAPH_MODE_PRODUCTION)
            .build();
    PipelineGraph ghost =
        production.toBuilder()
            .setNodes(4, production.getNodes(4).toBuilder().addIndexPlanIds("ghost-plan"))
            .build();

    CommandRun refused =
        run(
            "graph",
            "apply",
            write("ghost.json", GraphFile.json(ghost)).toString(),
            "--inactive",
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa);
    assertThat(refused.status()).as("%s", refused).isEqualTo(1);
    assertThat(refused.out())
        .contains(
            "ERROR rule=IndexPlanProducible node=index: sink node 'index' names index plan"
                + " 'ghost-plan', which no sink module has declared")
        .contains("nothing applied");

    CommandRun applied =
        run(
            "graph",
            "apply",
            write("prod.json", GraphFile.json(production)).toString(),
            "--inactive",
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa);
    assertThat(applied.status()).as("the sample sink declared its plan: %s", applied).isZero();
    assertThat(applied.out()).contains("graph 'prod-articles' version 1 stored, not active");
  }

  @Test
  void aDatasourceIsGrantedToAnotherAccountAuditedAndRevoked() throws Exception {
    platform.provisionAccount("globex", "globex-docs");
    Path reader =
        write(
            "reader.json",
            GraphFile.json(
                DemoGraph.of("globex", "notes", LocalPlatform.CLUSTER).toBuilder()
                    .setGraphId("globex-reader")
                    .setName("globex-reader")
                    .build()));
    CommandRun ungranted =
        run(
            "graph",
            "validate",
            reader.toString(),
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa);
    assertThat(ungranted.out())
        .as("%s", ungranted)
        .contains("'acme' has not granted it to 'globex'");

    CommandRun granted =
        run(
            "datasource",
            "grant",
            "notes",
            "--owner",
            ACCOUNT,
            "--to",
            "globex",
            "--by",
            "ops",
            "--reason",
            "shared notes",
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa);
    assertThat(granted.status()).as("%s", granted).isZero();
    assertThat(granted.out())
        .contains("notes -> globex live granted by ops at ")
        .contains("(shared notes)");
    CommandRun valid =
        run(
            "graph",
            "validate",
            reader.toString(),
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa);
    assertThat(valid.status()).as("%s", valid).isZero();

    CommandRun notOwner =
        run(
            "datasource",
            "grant",
            "notes",
            "--owner",
            "globex",
            "--to",
            "initech",
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa);
    assertThat(notOwner.status()).isEqualTo(1);
    assertThat(notOwner.err()).contains("ownerAccountId: 'globex' does not own datasource 'notes'");

    CommandRun revoked =
        run(
            "datasource",
            "revoke",
            "notes",
            "--owner",
            ACCOUNT,
            "--from",
            "globex",
            "--by",
            "sec",
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa);
    assertThat(revoked.out()).as("%s", revoked).contains("revoked by sec at ");
    CommandRun history =
        run("datasource", "grants", "notes", "--gateway", gateway, "--gateway-ca", gatewayCa);
    assertThat(history.out().lines())
        .singleElement()
        .asString()
        .contains("notes -> globex revoked");
    assertThat(
            run(
                    "graph",
                    "validate",
                    reader.toString(),
                    "--gateway",
                    gateway,
                    "--gateway-ca",
                    gatewayCa)
                .status())
        .as("refused again once revoked")
        .isEqualTo(1);
  }

  @Test
  void anUnknownDocumentIsReportedWithWhereIdsComeFrom() {
    CommandRun doc =
        run(
            "doc",
            "get",
            "no-such-doc",
            "--account",
            ACCOUNT,
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa);
    assertThat(doc.status()).as("%s", doc).isEqualTo(1);
    assertThat(doc.err())
        .startsWith("protomolt doc get: DOC_ID: ")
        .contains("no document 'no-such-doc' in account 'acme'")
        .contains("`protomolt ingest` prints the id");
    CommandRun half =
        run(
            "doc",
            "manifest",
            "x",
            "--account",
            ACCOUNT,
            "--graph",
            "g",
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa);
    assertThat(half.err()).contains("--graph: must be given together with --node");
    CommandRun part =
        run(
            "doc",
            "get",
            "x",
            "--account",
            ACCOUNT,
            "--part",
            "pages",
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa);
    assertThat(part.status()).isEqualTo(2);
    assertThat(part.err()).contains("must be CORE, BLOBS, CHUNKS or PARSED, got 'pages'");
  }

  private Path write(String name, String text) {
    try {
      return Files.writeString(files.resolve(name), text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
