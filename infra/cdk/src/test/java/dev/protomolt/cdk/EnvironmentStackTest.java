package dev.protomolt.cdk;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.protomolt.cdk.PolicyDocuments.Statement;
import dev.protomolt.cdk.constructs.GraphAdminAccess;
import dev.protomolt.cdk.constructs.PipelineFunctions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

/** The dev environment as a whole: wiring between constructs and each function's grants. */
class EnvironmentStackTest {

  private static Template template;

  @BeforeAll
  static void synth() {
    template = TestEnvironments.dev();
  }

  @Test
  void everyFunctionKnowsWhereEverythingIs() {
    for (PlatformFunction pf : PlatformFunction.values()) {
      template.hasResourceProperties(
          "AWS::Lambda::Function",
          Match.objectLike(
              Map.of(
                  "FunctionName",
                  "protomolt-dev-" + pf.id(),
                  "Runtime",
                  "java25",
                  "Architectures",
                  List.of("arm64"),
                  "Environment",
                  Map.of(
                      "Variables",
                      Match.objectLike(
                          Map.of(
                              "QUARKUS_LAMBDA_HANDLER", pf.handlerName(),
                              "PROTOMOLT_ENV", "dev",
                              "PROTOMOLT_DB_USER", "protomolt",
                              "PROTOMOLT_KAFKA_CLUSTER_ARN", Match.anyValue(),
                              "PROTOMOLT_DB_HOST", Match.anyValue()))))));
    }
  }

  @Test
  void graphAdminIsToldTheExecutionRoleAndTheHopAliases() {
    template.hasResourceProperties(
        "AWS::Lambda::Function",
        Match.objectLike(
            Map.of(
                "FunctionName",
                "protomolt-dev-graph-admin",
                "Environment",
                Map.of(
                    "Variables",
                    Match.objectLike(
                        Map.of(
                            "PROTOMOLT_EXECUTION_ROLE_ARN", Match.anyValue(),
                            "PROTOMOLT_PREPARE_FUNCTION_ARN",
                                Map.of("Ref", Match.stringLikeRegexp("FunctionsPrepareLive.*")),
                            "PROTOMOLT_DISPATCH_FUNCTION_ARN",
                                Map.of("Ref", Match.stringLikeRegexp("FunctionsDispatchLive.*")),
                            "PROTOMOLT_COMPLETE_FUNCTION_ARN",
                                Map.of("Ref", Match.stringLikeRegexp("FunctionsCompleteLive.*")),
                            "PROTOMOLT_DLQ_FUNCTION_ARN",
                                Map.of("Ref", Match.stringLikeRegexp("FunctionsDlqLive.*"))))))));
  }

  @Test
  void theMskTriggeredFunctionsConsumeTheirTopicsThroughTheirAliases() {
    Map<String, String> expected =
        Map.of(
            "storage-purge", "FunctionsPurge",
            "reclaim-requests", "FunctionsReclaim",
            "document-deleted", "FunctionsReclaim",
            "account-events", "FunctionsAccountEvents");
    Map<String, Map<String, Object>> mappings =
        template.findResources("AWS::Lambda::EventSourceMapping");
    expected.forEach(
        (topic, function) ->
            assertThat(mappings.values())
                .anySatisfy(
                    m -> {
                      Map<?, ?> props = (Map<?, ?>) m.get("Properties");
                      assertThat(props.get("Topics")).isEqualTo(List.of(topic));
                      // <function name>:live, the alias-qualified name, so the SnapStart version
                      // runs.
                      assertThat(PolicyDocuments.render(props.get("FunctionName")))
                          .matches(
                              "\\$\\{select 6 of split ':' \\$\\{"
                                  + function
                                  + "Live[0-9A-F]{8}\\}\\}:live");
                    }));
    template.resourceCountIs("AWS::Lambda::EventSourceMapping", 6);
    // indexing-ledger and settlement both read the receipts, each in its own group.
    template.hasResourceProperties(
        "AWS::Lambda::EventSourceMapping",
        Match.objectLike(
            Map.of(
                "Topics", List.of("indexing-receipts"),
                "AmazonManagedKafkaEventSourceConfig",
                    Map.of("ConsumerGroupId", "protomolt-dev-settlement"))));
    template.hasResourceProperties(
        "AWS::Lambda::EventSourceMapping",
        Match.objectLike(
            Map.of(
                "Topics", List.of("indexing-receipts"),
                "AmazonManagedKafkaEventSourceConfig",
                    Map.of("ConsumerGroupId", "protomolt-dev-indexing-ledger"))));
  }

  @Test
  void mappingsWaitForTheTopicsToExist() {
    Map<String, Map<String, Object>> mappings =
        template.findResources("AWS::Lambda::EventSourceMapping");
    assertThat(mappings.values())
        .allSatisfy(
            m -> assertThat(m.get("DependsOn").toString()).contains("ProvisioningKafkaTopics"));
  }

  @Test
  void reconcilerAndRetentionRunOnTheConfiguredSchedules() {
    template.hasResourceProperties(
        "AWS::Scheduler::Schedule",
        Match.objectLike(
            Map.of(
                "ScheduleExpression",
                "rate(6 hours)",
                "Target",
                Match.objectLike(
                    Map.of(
                        "Arn",
                        Map.of("Ref", Match.stringLikeRegexp("FunctionsReconcilerLive.*")))))));
    template.hasResourceProperties(
        "AWS::Scheduler::Schedule",
        Match.objectLike(
            Map.of(
                "ScheduleExpression",
                "cron(0 3 * * ? *)",
                "Target",
                Match.objectLike(
                    Map.of(
                        "Arn",
                        Map.of("Ref", Match.stringLikeRegexp("FunctionsRetentionLive.*")))))));
  }

  @Test
  void theGatewayImageIsBuiltFromTheConfiguredDirectory() {
    template.hasResourceProperties(
        "AWS::ECS::TaskDefinition",
        Match.objectLike(
            Map.of(
                "ContainerDefinitions",
                List.of(
                    Match.objectLike(
                        Map.of(
                            "Image",
                                Map.of("Fn::Sub", Match.stringLikeRegexp(".*container-assets.*")),
                            "PortMappings",
                                List.of(
                                    Match.objectLike(Map.of("ContainerPort", 18100)),
                                    // The admin port: mapped, never behind the load balancer.
                                    Match.objectLike(Map.of("ContainerPort", 18101)))))))));
  }

  @Test
  void schemaMigrationRunsAfterTheDatabaseExists() {
    Map<String, Map<String, Object>> migration =
        template.findResources("Custom::ProtoMoltSchemaMigration");
    assertThat(migration).hasSize(1);
    assertThat(migration.values().iterator().next().get("DependsOn").toString())
        .contains("DatabaseCluster");
  }

  @Test
  void eachFunctionHasOnlyTheKafkaRightsItsJobNeeds() {
    assertThat(kafkaActions("Dispatch"))
        .containsExactlyInAnyOrder(
            "kafka-cluster:Connect",
            "kafka:GetBootstrapBrokers",
            "kafka:DescribeClusterV2",
            "kafka-cluster:WriteDataIdempotently",
            "kafka-cluster:DescribeTopic",
            "kafka-cluster:WriteData");
    // Prepare writes step records and the settled hop's reclaim requests; it never reads a topic.
    assertThat(kafkaActions("Prepare"))
        .contains("kafka-cluster:WriteData")
        .doesNotContain("kafka-cluster:ReadData", "kafka-cluster:CreateTopic");
    assertThat(topicResources("Prepare"))
        .allMatch(r -> r.endsWith("/pipeline-events") || r.endsWith("/reclaim-requests"));
    assertThat(topicResources("Dlq")).anyMatch(r -> r.endsWith("/reclaim-requests"));
    assertThat(kafkaActions("Purge"))
        .contains("kafka-cluster:ReadData")
        .doesNotContain("kafka-cluster:WriteData");
    assertThat(kafkaActions("Migrate")).contains("kafka-cluster:CreateTopic");
    assertThat(kafkaActions("Intake"))
        .doesNotContain("kafka-cluster:CreateTopic", "kafka-cluster:ReadData");
    // Dispatch writes work to module topics, and the reclaim requests of a hop that the Complete
    // before it prepared (decision 1832); it never reads a topic.
    assertThat(topicResources("Dispatch"))
        .allMatch(r -> r.endsWith("/pipestream.module.*") || r.endsWith("/reclaim-requests"))
        .anyMatch(r -> r.endsWith("/reclaim-requests"));
    assertThat(kafkaActions("Dispatch")).doesNotContain("kafka-cluster:ReadData");
    // A direct Complete dispatches the next node's work itself (decision 1842).
    assertThat(topicResources("Complete"))
        .anyMatch(r -> r.endsWith("/pipestream.module.*"))
        .allMatch(
            r ->
                r.endsWith("/pipestream.module.*")
                    || r.endsWith("/reclaim-requests")
                    || r.endsWith("/pipeline-events"));
    assertThat(kafkaActions("Complete")).doesNotContain("kafka-cluster:ReadData");
  }

  @Test
  void onlyAccountEventsMayCreateBuckets() {
    Set<String> creators =
        PolicyDocuments.identityStatements(template).stream()
            .filter(s -> s.actions().contains("s3:CreateBucket"))
            .flatMap(s -> s.roles().stream())
            .collect(Collectors.toSet());
    assertThat(creators)
        .singleElement()
        .asString()
        .startsWith("${FunctionsAccountEventsServiceRole");
  }

  @Test
  void theGatewayCompletesTasksAndReadsModuleTopicsButCannotStartExecutions() {
    // Activation through its graph door passes the execution role (see the graph door test below);
    // starting executions stays intake's and replay's.
    String taskRole = IamPolicyTest.roleIdIn(template, "GatewayTaskTaskRole");
    List<String> actions =
        PolicyDocuments.forRole(template, taskRole).stream()
            .flatMap(s -> s.actions().stream())
            .toList();
    assertThat(actions)
        .contains(
            "states:SendTaskSuccess",
            "states:SendTaskFailure",
            "states:SendTaskHeartbeat",
            "kafka-cluster:ReadData",
            "rds-db:connect")
        .doesNotContain("states:StartExecution");
  }

  @Test
  void triggersTargetTheLiveAliasNeverLatest() {
    template.hasResourceProperties(
        "AWS::Lambda::Permission",
        Match.objectLike(
            Map.of(
                "Principal",
                "s3.amazonaws.com",
                "FunctionName",
                Map.of("Ref", Match.stringLikeRegexp("FunctionsIntakeLive.*")))));
    assertThat(PipelineFunctions.ALIAS).isEqualTo("live");
  }

  @Test
  void accountProvisioningAddsIntakeRulesForTheIntakeAliasOnTheIntakeBucketOnly() {
    template.resourceCountIs("Custom::S3BucketNotifications", 0);
    template.hasResourceProperties(
        "AWS::Lambda::Function",
        Match.objectLike(
            Map.of(
                "FunctionName",
                "protomolt-dev-account-events",
                "Environment",
                Map.of(
                    "Variables",
                    Match.objectLike(
                        Map.of(
                            "PROTOMOLT_INTAKE_FUNCTION_ARN",
                            Map.of("Ref", Match.stringLikeRegexp("FunctionsIntakeLive.*"))))))));
    List<Statement> notificationGrants =
        PolicyDocuments.identityStatements(template).stream()
            .filter(s -> s.actions().contains("s3:PutBucketNotification"))
            .toList();
    assertThat(notificationGrants)
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.roles())
                  .singleElement()
                  .asString()
                  .startsWith("${FunctionsAccountEventsServiceRole");
              assertThat(s.resources())
                  .singleElement()
                  .asString()
                  .startsWith("${StorageIntake")
                  .endsWith(".Arn}");
            });
  }

  @Test
  void intakeMayReadAndDeleteUploadsForRightToBeForgotten() {
    // A declared upload's metadata is read with HeadObject (s3:GetObject) and the upload deleted
    // once admitted (decisions 1747, 1749): both on every object of the intake bucket.
    List<Statement> intake = statementsOf("Intake");
    assertThat(intake)
        .anySatisfy(
            s -> {
              assertThat(s.actions()).contains("s3:DeleteObject");
              assertThat(s.resources())
                  .singleElement()
                  .asString()
                  .startsWith("${StorageIntake")
                  .endsWith("/*");
            });
    assertThat(intake)
        .anySatisfy(
            s -> {
              assertThat(s.actions()).contains("s3:GetObject*");
              assertThat(s.resources()).anyMatch(r -> r.startsWith("${StorageIntake"));
            });
  }

  @Test
  void documentWritersWriteIntakeCopiesOnlyUnderTheirPrefix() {
    List<String> intakePuts =
        PolicyDocuments.identityStatements(template).stream()
            .filter(s -> s.actions().contains("s3:PutObject"))
            .flatMap(s -> s.resources().stream())
            .filter(r -> r.contains("StorageIntake"))
            .distinct()
            .toList();
    assertThat(intakePuts).singleElement().asString().endsWith("/_intake-copies/*");
    // Prepare stages `.pre` copies, so it writes documents; like every writer, intake copies only
    // under their prefix (the single-element check above covers it).
    assertThat(statementsOf("Prepare").stream().flatMap(s -> s.actions().stream()))
        .contains("s3:GetObject*", "s3:PutObject");
  }

  @Test
  void theGatewayContainerIsToldItsModulesGroupRegionAndLedger() {
    // Environment order follows a hash map, so each variable is matched on its own.
    for (Map<String, Object> variable :
        List.<Map<String, Object>>of(
            Map.of(
                "Name",
                "PROTOMOLT_GATEWAY_MODULES",
                "Value",
                "parser,chunker,embedder,opensearch-sink"),
            Map.of("Name", "PROTOMOLT_GATEWAY_GROUP", "Value", "protomolt-dev-gateway"),
            Map.of("Name", "AWS_REGION", "Value", "eu-west-1"),
            Map.of("Name", "PROTOMOLT_DB_USER", "Value", "protomolt"),
            Map.of("Name", "PROTOMOLT_DB_NAME", "Value", "protomolt"),
            // The cluster's port attribute, not a literal: the local cloud resolves it to its own
            // database's port.
            Map.of(
                "Name",
                "PROTOMOLT_DB_PORT",
                "Value",
                Map.of(
                    "Fn::GetAtt",
                    List.of(
                        Match.stringLikeRegexp("^DatabaseCluster[0-9A-F]{8}$"),
                        "Endpoint.Port"))))) {
      assertGatewayEnvironmentHas(variable);
    }
    // The proxy host and the cluster ARN are references resolved at deploy time.
    List<String> names = gatewayEnvironmentNames();
    assertThat(names)
        .contains("PROTOMOLT_DB_HOST", "PROTOMOLT_KAFKA_CLUSTER_ARN")
        .doesNotContain(
            "PROTOMOLT_JDBC_URL",
            "PROTOMOLT_JDBC_USER",
            "PROTOMOLT_JDBC_PASSWORD",
            "PROTOMOLT_KAFKA_BOOTSTRAP");
  }

  @Test
  void theGatewayIsInternalByDefaultAndServesOnlyTlsToAuthenticatedCallers() {
    // dev.json says "internetFacing": false; a missing setting means the same.
    template.hasResourceProperties(
        "AWS::ElasticLoadBalancingV2::LoadBalancer",
        Match.objectLike(Map.of("Type", "network", "Scheme", "internal")));
    // One listener, TLS on 443: no plaintext door beside it.
    template.resourceCountIs("AWS::ElasticLoadBalancingV2::Listener", 1);
    template.hasResourceProperties(
        "AWS::ElasticLoadBalancingV2::Listener",
        Match.objectLike(Map.of("Port", 443, "Protocol", "TLS")));
    // Callers are verified at AWS's own STS (no endpoint override) and mapped by the configured
    // principals: the operator doors answer the operators' role only, modules their task roles.
    for (Map<String, String> variable :
        List.of(
            Map.of(
                "Name",
                "PROTOMOLT_GATEWAY_OPERATOR_PRINCIPALS",
                "Value",
                "arn:aws:iam::111111111111:role/protomolt-dev-operators=*"),
            Map.of(
                "Name",
                "PROTOMOLT_GATEWAY_MODULE_PRINCIPALS",
                "Value",
                "chunker=arn:aws:iam::111111111111:role/protomolt-dev-module-chunker;"
                    + "embedder=arn:aws:iam::111111111111:role/protomolt-dev-module-embedder;"
                    + "opensearch-sink=arn:aws:iam::111111111111:role/"
                    + "protomolt-dev-module-opensearch-sink;"
                    + "parser=arn:aws:iam::111111111111:role/protomolt-dev-module-parser"))) {
      assertGatewayEnvironmentHas(variable);
    }
    assertThat(gatewayEnvironmentNames()).doesNotContain("AWS_ENDPOINT_URL_STS");
  }

  @Test
  void theGatewayIsToldItsAudienceAndTheStackPublishesItForClients() {
    // Tokens are signed for one gateway (decision 1511): the task verifies for the environment's
    // gateway name, and clients read the same value from the stack's outputs.
    assertGatewayEnvironmentHas(
        Map.of("Name", "PROTOMOLT_GATEWAY_AUDIENCE", "Value", "protomolt-dev-gateway"));
    template.hasOutput("GatewayAudience", Map.of("Value", "protomolt-dev-gateway"));
  }

  @Test
  void theGatewayLearnsTheAccountSharesOfTheConfig() {
    // dev.json names every account's share as weight 1: the variable the gateway parses.
    assertGatewayEnvironmentHas(
        Map.of("Name", "PROTOMOLT_GATEWAY_ACCOUNT_SHARES", "Value", "*=weight:1"));
  }

  @Test
  void theGatewayTaskRoleConnectsAsTheProxyUserAndReadsOnlyItsTopicsAndGroup() {
    List<Statement> statements = PolicyDocuments.forRole(template, gatewayTaskRoleId());
    List<Statement> connect =
        statements.stream().filter(st -> st.actions().contains("rds-db:connect")).toList();
    assertThat(connect)
        .singleElement()
        .satisfies(
            st ->
                assertThat(st.resources())
                    .singleElement()
                    .asString()
                    .contains(":rds-db:")
                    .contains(":dbuser:")
                    .endsWith("/protomolt"));
    assertThat(statements.stream().flatMap(st -> st.actions().stream()).distinct())
        .contains(
            "kafka-cluster:Connect",
            "kafka:GetBootstrapBrokers",
            "kafka-cluster:ReadData",
            "kafka-cluster:AlterGroup",
            "kafka-cluster:WriteData");
    for (Statement st : statements) {
      if (st.actions().stream().anyMatch(a -> a.startsWith("kafka") || a.startsWith("rds-db"))) {
        assertThat(st.resources())
            .as("resources of %s", st.actions())
            .noneMatch(r -> r.equals("*"));
      }
    }
    List<String> topics =
        statements.stream()
            .flatMap(st -> st.resources().stream())
            .filter(r -> r.contains(":topic/"))
            .map(r -> r.substring(r.lastIndexOf('/') + 1))
            .distinct()
            .toList();
    assertThat(topics)
        .containsExactlyInAnyOrder(
            "pipestream.module.parser",
            "pipestream.module.chunker",
            "pipestream.module.embedder",
            "pipestream.module.opensearch-sink",
            "storage-purge",
            // Sink modules' receipts ride their acks and the gateway produces them (decision 1555).
            "indexing-receipts",
            // The graph door publishes and follows graph changes, and creates dead-letter topics.
            "graph-updates",
            "pipestream.*.dlq",
            // dev switches the diagnostics probes on: the Kafka probe's canary topic.
            "diagnostics-canary",
            // Every task forgets a deactivated account's cached activity (decision 1744).
            "account-events");

    assertThat(
            statements.stream()
                .flatMap(st -> st.resources().stream())
                .filter(r -> r.contains(":group/")))
        .allSatisfy(r -> assertThat(r).endsWith("/protomolt-dev-gateway"));
  }

  @Test
  void theGatewaysGraphDoorIsToldTheDraftsTableAndWhatActivationEmbeds() {
    Map<String, Object> expected =
        Map.of(
            "PROTOMOLT_DRAFTS_TABLE",
            Map.of("Ref", Match.stringLikeRegexp("TablesDrafts.*")),
            "PROTOMOLT_EXECUTION_ROLE_ARN",
            Map.of(
                "Fn::GetAtt", List.of(Match.stringLikeRegexp("GraphAdminExecutionRole.*"), "Arn")),
            "PROTOMOLT_PREPARE_FUNCTION_ARN",
            Map.of("Ref", Match.stringLikeRegexp("FunctionsPrepareLive.*")),
            "PROTOMOLT_DISPATCH_FUNCTION_ARN",
            Map.of("Ref", Match.stringLikeRegexp("FunctionsDispatchLive.*")),
            "PROTOMOLT_COMPLETE_FUNCTION_ARN",
            Map.of("Ref", Match.stringLikeRegexp("FunctionsCompleteLive.*")),
            "PROTOMOLT_DLQ_FUNCTION_ARN",
            Map.of("Ref", Match.stringLikeRegexp("FunctionsDlqLive.*")));
    expected.forEach(
        (name, value) ->
            template.hasResourceProperties(
                "AWS::ECS::TaskDefinition",
                Match.objectLike(
                    Map.of(
                        "ContainerDefinitions",
                        List.of(
                            Match.objectLike(
                                Map.of(
                                    "Environment",
                                    Match.arrayWith(
                                        List.of(Map.of("Name", name, "Value", value))))))))));
  }

  @Test
  void theGatewaysGraphDoorMayDoWhatGraphAdminDoes() {
    List<Statement> statements = PolicyDocuments.forRole(template, gatewayTaskRoleId());
    Statement lifecycle =
        statements.stream()
            .filter(st -> st.actions().contains("states:CreateStateMachine"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("the gateway cannot create state machines"));
    assertThat(lifecycle.actions())
        .containsExactlyInAnyOrderElementsOf(GraphAdminAccess.STATE_MACHINE_ACTIONS);
    assertThat(lifecycle.resources())
        .containsExactly(
            "arn:${AWS::Partition}:states:eu-west-1:111111111111:stateMachine:protomolt-dev-*");
    assertThat(statements)
        .anySatisfy(
            st -> {
              assertThat(st.actions()).containsExactly("iam:PassRole");
              assertThat(st.resources())
                  .singleElement()
                  .asString()
                  .startsWith("${GraphAdminExecutionRole");
              assertThat(st.condition())
                  .isEqualTo(
                      Map.of(
                          "StringEquals", Map.of("iam:PassedToService", "states.amazonaws.com")));
            });
    assertThat(statements)
        .anySatisfy(
            st -> {
              assertThat(st.actions()).contains("dynamodb:PutItem", "dynamodb:GetItem");
              assertThat(st.actions()).contains("dynamodb:DeleteItem");
              assertThat(st.resources()).anyMatch(r -> r.startsWith("${TablesDrafts"));
            });
    assertThat(statements)
        .anySatisfy(
            st -> {
              assertThat(st.actions()).contains("kafka-cluster:CreateTopic");
              assertThat(st.resources()).singleElement().asString().endsWith("/pipestream.*.dlq");
            });
  }

  @Test
  @SuppressWarnings("unchecked")
  void theGatewayStoresSealedLogOriginalsUnderLogsInThePlatformBucket() {
    Map<String, Object> task =
        template.findResources("AWS::ECS::TaskDefinition").values().iterator().next();
    Map<String, Object> container =
        (Map<String, Object>)
            ((List<Object>)
                    ((Map<String, Object>) task.get("Properties")).get("ContainerDefinitions"))
                .get(0);
    String bucket =
        ((List<Map<String, Object>>) container.get("Environment"))
            .stream()
                .filter(v -> "PROTOMOLT_LOG_BUCKET".equals(v.get("Name")))
                .map(v -> PolicyDocuments.render(v.get("Value")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("PROTOMOLT_LOG_BUCKET is not set"));
    assertThat(bucket).startsWith("${StoragePlatform");
    String platformBucket = bucket.substring(2, bucket.length() - 1);
    assertThat(PolicyDocuments.forRole(template, gatewayTaskRoleId()))
        .anySatisfy(
            st -> {
              assertThat(st.actions()).containsExactlyInAnyOrder("s3:PutObject", "s3:GetObject");
              assertThat(st.resources())
                  .singleElement()
                  .asString()
                  .startsWith("${" + platformBucket + ".Arn}")
                  .endsWith("/logs/*");
            });
  }

  @Test
  void theHopFunctionsThatRecordDispositionsWriteTranscriptsAsConfigured() {
    for (String hop : List.of("prepare", "complete", "dlq")) {
      template.hasResourceProperties(
          "AWS::Lambda::Function",
          Match.objectLike(
              Map.of(
                  "FunctionName",
                  "protomolt-dev-" + hop,
                  "Environment",
                  Map.of(
                      "Variables",
                      Match.objectLike(Map.of("PROTOMOLT_EXECUTION_TRANSCRIPTS", "true"))))));
    }
  }

  @Test
  void devSwitchesTheGatewaysDiagnosticsOnAndProdLeavesThemOff() {
    for (Map<String, String> variable :
        List.of(
            Map.of("Name", "PROTOMOLT_DIAGNOSTICS_ENABLED", "Value", "true"),
            Map.of("Name", "PROTOMOLT_ADMIN_PORT", "Value", "18101"))) {
      assertGatewayEnvironmentHas(variable);
    }
    assertThat(gatewayEnvironmentNames()).contains("PROTOMOLT_DRAFTS_TABLE");
    // The drafts probe writes its canary draft with the task role.
    assertThat(PolicyDocuments.forRole(template, gatewayTaskRoleId()))
        .anySatisfy(
            st -> {
              assertThat(st.actions()).contains("dynamodb:PutItem", "dynamodb:DeleteItem");
              assertThat(st.resources()).anyMatch(r -> r.contains("TablesDrafts"));
            });
    // prod's config does not mention diagnostics, and an unmentioned switch is off.
    assertThat(TestEnvironments.config("prod").gateway().diagnosticsEnabled()).isFalse();
    assertThat(TestEnvironments.config("dev").gateway().diagnosticsEnabled()).isTrue();
  }

  @Test
  @SuppressWarnings("unchecked")
  void everyFunctionAndTheGatewaySignTheirSpansToTheRegionsXrayOtlpEndpoint() {
    // Decision 1797: no collector; each process signs its exports for service xray.
    String endpoint = "https://xray." + TestEnvironments.config("dev").region() + ".amazonaws.com";
    Map<String, Map<String, Object>> functions = template.findResources("AWS::Lambda::Function");
    int platformFunctions = 0;
    for (Map<String, Object> fn : functions.values()) {
      Map<String, Object> props = (Map<String, Object>) fn.get("Properties");
      Map<String, Object> env = (Map<String, Object>) props.getOrDefault("Environment", Map.of());
      Map<String, Object> variables = (Map<String, Object>) env.getOrDefault("Variables", Map.of());
      if (!variables.containsKey("QUARKUS_LAMBDA_HANDLER")) {
        continue; // CDK's own helper functions run none of the platform's code.
      }
      platformFunctions++;
      assertThat(variables)
          .as("environment of %s", props.get("FunctionName"))
          .containsEntry("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint)
          .containsEntry("PROTOMOLT_OTLP_SIGV4_SERVICE", "xray");
    }
    assertThat(platformFunctions).isEqualTo(PlatformFunction.values().length);
    for (Map<String, String> variable :
        List.of(
            Map.of("Name", "OTEL_EXPORTER_OTLP_ENDPOINT", "Value", endpoint),
            Map.of("Name", "PROTOMOLT_OTLP_SIGV4_SERVICE", "Value", "xray"))) {
      assertGatewayEnvironmentHas(variable);
    }
  }

  @Test
  void housekeepingSettingsComeFromTheEnvironmentsConfig() {
    template.hasResourceProperties(
        "AWS::Lambda::Function",
        Match.objectLike(
            Map.of(
                "FunctionName",
                "protomolt-dev-retention",
                "Environment",
                Map.of(
                    "Variables", Match.objectLike(Map.of("PROTOMOLT_RETENTION_WINDOW", "P30D"))))));
    template.hasResourceProperties(
        "AWS::Lambda::Function",
        Match.objectLike(
            Map.of(
                "FunctionName",
                "protomolt-dev-reconciler",
                "Environment",
                Map.of(
                    "Variables",
                    Match.objectLike(Map.of("PROTOMOLT_RECONCILER_DELETE", "true"))))));
  }

  @Test
  @SuppressWarnings("unchecked")
  void noFunctionIsGivenAnExplicitJdbcUrlOrBootstrap() {
    Map<String, Map<String, Object>> functions = template.findResources("AWS::Lambda::Function");
    assertThat(functions).hasSizeGreaterThanOrEqualTo(PlatformFunction.values().length);
    for (Map<String, Object> fn : functions.values()) {
      Map<String, Object> props = (Map<String, Object>) fn.get("Properties");
      Map<String, Object> env = (Map<String, Object>) props.getOrDefault("Environment", Map.of());
      Map<String, Object> variables = (Map<String, Object>) env.getOrDefault("Variables", Map.of());
      assertThat(variables)
          .as("environment of %s", props.get("FunctionName"))
          .doesNotContainKeys(
              "PROTOMOLT_JDBC_URL", "PROTOMOLT_KAFKA_BOOTSTRAP", "PROTOMOLT_JDBC_PASSWORD");
    }
  }

  /** The gateway's container is given {@code variable} ({@code Name} and {@code Value}). */
  private static void assertGatewayEnvironmentHas(Map<String, ?> variable) {
    template.hasResourceProperties(
        "AWS::ECS::TaskDefinition",
        Match.objectLike(
            Map.of(
                "ContainerDefinitions",
                List.of(
                    Match.objectLike(Map.of("Environment", Match.arrayWith(List.of(variable))))))));
  }

  @SuppressWarnings("unchecked")
  private static List<String> gatewayEnvironmentNames() {
    Map<String, Object> task =
        template.findResources("AWS::ECS::TaskDefinition").values().iterator().next();
    Map<String, Object> container =
        (Map<String, Object>)
            ((List<Object>)
                    ((Map<String, Object>) task.get("Properties")).get("ContainerDefinitions"))
                .get(0);
    return ((List<Map<String, Object>>) container.get("Environment"))
        .stream().map(v -> (String) v.get("Name")).toList();
  }

  private static String gatewayTaskRoleId() {
    return template.findResources("AWS::IAM::Role").keySet().stream()
        .filter(id -> id.startsWith("Gateway") && id.contains("TaskRole"))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no gateway task role"));
  }

  @Test
  void cloudFormationsOwnLinterFindsNothingUnacknowledged() throws IOException {
    // CDK runs CloudFormation validation at synth and downgrades its errors to warnings, so a
    // finding would not fail synth: this test makes any finding fail the build instead.
    Path report = TestEnvironments.devAssembly().resolve("validation-report.json");
    JsonNode plugins = new ObjectMapper().readTree(report.toFile()).path("pluginReports");
    List<String> ran = new ArrayList<>();
    List<String> findings = new ArrayList<>();
    Set<String> acknowledged = new TreeSet<>();
    plugins.forEach(
        plugin -> {
          ran.add(plugin.path("pluginName").asText());
          plugin
              .path("violations")
              .forEach(
                  v ->
                      findings.add(
                          plugin.path("pluginName").asText()
                              + " "
                              + v.path("ruleName").asText()
                              + ": "
                              + v.path("description").asText()));
          plugin
              .path("suppressedViolations")
              .forEach(v -> acknowledged.add(v.path("ruleName").asText()));
        });
    assertThat(ran).contains("CloudFormation Validate");
    assertThat(findings).isEmpty();
    // The one acknowledged rule: hard-coded zones, on purpose (decision 0653).
    assertThat(acknowledged).containsOnly("W3010");
  }

  private static List<String> kafkaActions(String fn) {
    return statementsOf(fn).stream()
        .flatMap(s -> s.actions().stream())
        .filter(a -> a.startsWith("kafka"))
        .distinct()
        .toList();
  }

  private static List<String> topicResources(String fn) {
    return statementsOf(fn).stream()
        .flatMap(s -> s.resources().stream())
        .filter(r -> r.contains(":topic/"))
        .toList();
  }

  private static List<Statement> statementsOf(String fn) {
    return PolicyDocuments.forRole(
        template, IamPolicyTest.roleIdIn(template, "Functions" + fn + "ServiceRole"));
  }
}
