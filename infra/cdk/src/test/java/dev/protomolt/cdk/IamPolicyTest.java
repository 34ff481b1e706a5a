package dev.protomolt.cdk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.cdk.PolicyDocuments.Statement;
import dev.protomolt.cdk.constructs.GraphAdminAccess;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;

/** Walks every IAM statement of the synthesized dev environment. */
class IamPolicyTest {

  /**
   * The only actions that may be granted on {@code "*"}: AWS does not let them name a resource,
   * so a narrower grant is impossible. Every other action must name its resources.
   */
  static final Set<String> ACTIONS_THAT_ONLY_ACCEPT_STAR =
      Set.of(
          // Lambda's MSK poller inspects the cluster's VPC; EC2 Describe* has no resource-level
          // IAM.
          "ec2:DescribeVpcs",
          "ec2:DescribeSubnets",
          "ec2:DescribeSecurityGroups",
          // ECR login tokens are account-wide; pulling is then limited to the named repository.
          "ecr:GetAuthorizationToken",
          // Activation looks a graph's machine up by name; the list has no resource-level IAM.
          "states:ListStateMachines",
          // Task tokens are answered without naming their machine: IAM has no resource type for
          // these, and the token is the capability (the local cloud refused the narrower grant).
          "states:SendTaskSuccess",
          "states:SendTaskFailure",
          "states:SendTaskHeartbeat",
          // X-Ray authorizes an OTLP export as PutTraceSegments, which names no resource.
          "xray:PutTraceSegments",
          // X-Ray's trace reads name no resource either (only groups and sampling rules do).
          "xray:GetTraceSummaries",
          "xray:BatchGetTraces");

  private static Template template;
  private static List<Statement> statements;

  @BeforeAll
  static void synth() {
    template = TestEnvironments.dev();
    statements = PolicyDocuments.identityStatements(template);
  }

  @Test
  void noStatementGrantsADataPlaneActionOnEveryResource() {
    assertThat(statements).isNotEmpty();
    assertThat(wildcardOffenders(statements))
        .as("actions granted on * that could name a resource")
        .isEmpty();
  }

  @Test
  void theWildcardCheckCatchesAGrantOnEverything() {
    // The check above must be able to fail: a stack with one bad and one allowed grant.
    Stack stack = TestEnvironments.emptyStack();
    Role role =
        Role.Builder.create(stack, "Careless")
            .assumedBy(new ServicePrincipal("lambda.amazonaws.com"))
            .build();
    role.addToPrincipalPolicy(
        PolicyStatement.Builder.create()
            .actions(List.of("s3:GetObject", "ec2:DescribeVpcs"))
            .resources(List.of("*"))
            .build());
    List<String> offenders =
        wildcardOffenders(PolicyDocuments.identityStatements(Template.fromStack(stack)));
    assertThat(offenders).singleElement().asString().endsWith("s3:GetObject on *");
  }

  /** Every action granted on {@code *} that AWS would have let us scope to a resource. */
  static List<String> wildcardOffenders(List<Statement> statements) {
    return statements.stream()
        .filter(s -> "Allow".equals(s.effect()) && s.resources().contains("*"))
        .flatMap(
            s ->
                s.actions().stream()
                    .filter(a -> !ACTIONS_THAT_ONLY_ACCEPT_STAR.contains(a))
                    .map(a -> s.policyId() + ": " + a + " on *"))
        .toList();
  }

  @Test
  void noActionIsAWildcard() {
    assertThat(statements.stream().flatMap(s -> s.actions().stream()))
        .noneMatch(a -> a.equals("*") || a.endsWith(":*"));
  }

  @Test
  void kafkaGrantsNameTopicsAndGroupsNotTheWholeCluster() {
    List<String> kafkaResources =
        statements.stream()
            .filter(s -> s.actions().stream().anyMatch(a -> a.startsWith("kafka-cluster:")))
            .flatMap(s -> s.resources().stream())
            .toList();
    assertThat(kafkaResources).isNotEmpty();
    assertThat(kafkaResources).noneMatch(r -> r.endsWith("/*"));
    assertThat(kafkaResources).anyMatch(r -> r.contains(":topic/") && r.endsWith("/storage-purge"));
    assertThat(kafkaResources)
        .anyMatch(r -> r.contains(":group/") && r.endsWith("/protomolt-dev-purge"));
  }

  @Test
  void theDeadLetterDoorReadsDeadLetterTopicsAndStartsExecutionsButWritesNoTopic() {
    List<PolicyDocuments.Statement> door =
        PolicyDocuments.forRole(template, roleId("FunctionsDlqAdminServiceRole"));
    assertThat(door)
        .anySatisfy(
            s -> {
              assertThat(s.actions()).contains("kafka-cluster:ReadData");
              assertThat(s.resources()).allMatch(r -> r.endsWith("/pipestream.*.dlq"));
            });
    assertThat(door).anySatisfy(s -> assertThat(s.actions()).contains("states:StartExecution"));
    assertThat(door.stream().flatMap(s -> s.actions().stream()))
        .doesNotContain("kafka-cluster:WriteData", "s3:PutObject", "states:RedriveExecution");
    List<PolicyDocuments.Statement> operators =
        statements.stream().filter(s -> s.policyId().startsWith("OperatorsPolicy")).toList();
    assertThat(operators)
        .anySatisfy(
            s -> {
              assertThat(s.actions()).containsExactly("lambda:InvokeFunction");
              assertThat(s.resources()).singleElement().asString().contains("FunctionsDlqAdmin");
            });
  }

  @Test
  void stepFunctionsGrantsStayInsideTheEnvironmentsNameSpace() {
    List<String> resources =
        statements.stream()
            .filter(s -> s.actions().stream().anyMatch(a -> a.startsWith("states:")))
            // ListStateMachines and the task-token answers name no resource in IAM
            // (ACTIONS_THAT_ONLY_ACCEPT_STAR).
            .filter(s -> !ACTIONS_THAT_ONLY_ACCEPT_STAR.containsAll(s.actions()))
            .flatMap(s -> s.resources().stream())
            .toList();
    assertThat(resources)
        .isNotEmpty()
        .allMatch(
            r ->
                r.endsWith(":stateMachine:protomolt-dev-*")
                    || r.endsWith(":execution:protomolt-dev-*:*")
                    // The replay state machine starts itself to continue a run (decision 1701).
                    || r.endsWith(":stateMachine:protomolt-dev-replay"));
  }

  @Test
  void graphAdminGetsExactlyTheStateMachineLifecycleAndOnePassRole() {
    String role = roleId("FunctionsGraphAdminServiceRole");
    List<Statement> admin =
        PolicyDocuments.forRole(template, role).stream()
            .filter(
                s ->
                    s.actions().stream()
                        .anyMatch(a -> a.startsWith("states:") || a.startsWith("iam:")))
            .toList();
    assertThat(admin).hasSize(3);
    assertThat(admin)
        .anySatisfy(
            s -> {
              assertThat(s.actions()).containsExactly("states:ListStateMachines");
              assertThat(s.resources()).containsExactly("*");
            });
    Statement lifecycle =
        admin.stream()
            .filter(s -> s.actions().getFirst().startsWith("states:"))
            .filter(s -> !s.actions().equals(List.of("states:ListStateMachines")))
            .findFirst()
            .orElseThrow();
    assertThat(new HashSet<>(lifecycle.actions()))
        .isEqualTo(new HashSet<>(GraphAdminAccess.STATE_MACHINE_ACTIONS));
    assertThat(lifecycle.resources())
        .containsExactly(
            "arn:${AWS::Partition}:states:eu-west-1:111111111111:stateMachine:protomolt-dev-*");
    Statement passRole =
        admin.stream().filter(s -> s.actions().contains("iam:PassRole")).findFirst().orElseThrow();
    assertThat(passRole.actions()).containsExactly("iam:PassRole");
    assertThat(passRole.resources())
        .singleElement()
        .asString()
        .startsWith("${GraphAdminExecutionRole")
        .endsWith(".Arn}");
    assertThat(passRole.condition())
        .isEqualTo(Map.of("StringEquals", Map.of("iam:PassedToService", "states.amazonaws.com")));
  }

  @Test
  void onlyTheThreeGraphDoorsMayPassARole() {
    // Graph admin, the gateway's PipelineGraphService and the console API (decision 1770) all
    // activate graphs.
    Set<String> passers =
        statements.stream()
            .filter(s -> s.actions().stream().anyMatch(a -> a.startsWith("iam:")))
            .flatMap(s -> s.roles().stream())
            .collect(Collectors.toSet());
    assertThat(passers)
        .hasSize(3)
        .anyMatch(r -> r.startsWith("${FunctionsGraphAdminServiceRole"))
        .anyMatch(r -> r.startsWith("${GatewayTaskTaskRole"))
        .anyMatch(r -> r.startsWith("${FunctionsConsoleApiServiceRole"));
  }

  @Test
  void theConsoleApiMayStartRedriveAndReadExecutionsOfThisEnvironmentAndUseTheDraftsTable() {
    List<Statement> console =
        PolicyDocuments.forRole(template, roleId("FunctionsConsoleApiServiceRole"));
    String executions =
        "arn:${AWS::Partition}:states:eu-west-1:111111111111:execution:protomolt-dev-*:*";
    String machines =
        "arn:${AWS::Partition}:states:eu-west-1:111111111111:stateMachine:protomolt-dev-*";
    // Replays start the replay machine, and reprocessed dead letters a graph version: both in
    // the environment's machine pattern, never wider.
    assertThat(console)
        .anySatisfy(
            s -> {
              assertThat(s.actions()).contains("states:StartExecution");
              assertThat(s.resources()).containsExactly(machines);
            });
    assertThat(console)
        .anySatisfy(
            s -> {
              assertThat(s.actions()).containsExactly("states:RedriveExecution");
              assertThat(s.resources()).containsExactly(executions);
            });
    assertThat(console.stream().filter(s -> s.actions().contains("states:StartExecution")))
        .allSatisfy(s -> assertThat(s.resources()).containsExactly(machines));
    assertThat(
            console.stream()
                .filter(s -> s.actions().stream().anyMatch(a -> a.startsWith("dynamodb:")))
                .flatMap(s -> s.resources().stream()))
        .isNotEmpty()
        .allMatch(r -> r.startsWith("${TablesDrafts"), "only the drafts table");
  }

  @Test
  void onlyIntakePrepareCompleteAndTheGatewayUseTheRightToBeForgottenKeyAndOnlyThatKey() {
    List<Statement> kms =
        statements.stream()
            .filter(s -> s.actions().stream().anyMatch(a -> a.startsWith("kms:")))
            .toList();
    assertThat(kms.stream().flatMap(s -> s.roles().stream()).collect(Collectors.toSet()))
        .hasSize(4)
        .anyMatch(r -> r.startsWith("${FunctionsIntakeServiceRole"))
        .anyMatch(r -> r.startsWith("${FunctionsPrepareServiceRole"))
        .anyMatch(r -> r.startsWith("${FunctionsCompleteServiceRole"))
        .anyMatch(r -> r.startsWith("${GatewayTaskTaskRole"));
    assertThat(kms)
        .allSatisfy(
            s -> {
              assertThat(s.resources()).singleElement().asString().startsWith("${RtbfDataKey");
              assertThat(s.actions()).isSubsetOf("kms:GenerateDataKey", "kms:Decrypt");
            });
    assertThat(
            PolicyDocuments.forRole(template, roleId("FunctionsPrepareServiceRole")).stream()
                .flatMap(s -> s.actions().stream()))
        .as("prepare only reads bodies")
        .doesNotContain("kms:GenerateDataKey");
    // The gateway opens and re-seals under a document's existing key (decision 1509): it never
    // generates one, so it holds Decrypt and no other KMS action.
    assertThat(
            PolicyDocuments.forRole(template, roleId("GatewayTaskTaskRole")).stream()
                .flatMap(s -> s.actions().stream())
                .filter(a -> a.startsWith("kms:")))
        .as("the gateway only opens data keys")
        .containsOnly("kms:Decrypt");
  }

  @Test
  void onlyOperatorsAndTheConsoleApiMayRedrive() {
    Set<String> redrivers =
        statements.stream()
            .filter(s -> s.actions().contains("states:RedriveExecution"))
            .flatMap(s -> s.roles().stream())
            .collect(Collectors.toSet());
    assertThat(redrivers).anyMatch(r -> r.startsWith("${FunctionsConsoleApiServiceRole"));
    assertThat(redrivers)
        .allMatch(
            r -> r.startsWith("${FunctionsConsoleApiServiceRole") || r.startsWith("${Operators"));
  }

  @Test
  void everyFunctionAndTheGatewayTaskMayExportSpansToXrayAndNothingMore() {
    // Every role that runs code with the OTLP endpoint (decision 1797): each function's role and
    // the gateway's task role, and no other role, hold X-Ray's one write action on *.
    Set<String> exporters =
        statements.stream()
            .filter(s -> s.actions().contains("xray:PutTraceSegments"))
            .peek(
                s -> {
                  assertThat(s.actions()).containsExactly("xray:PutTraceSegments");
                  assertThat(s.resources()).containsExactly("*");
                  assertThat(s.effect()).isEqualTo("Allow");
                })
            .flatMap(s -> s.roles().stream())
            .collect(Collectors.toSet());
    Set<String> expected = new HashSet<>();
    for (PlatformFunction fn : PlatformFunction.values()) {
      expected.add("${" + roleId("Functions" + pascal(fn.id()) + "ServiceRole") + "}");
    }
    expected.add("${" + roleId("GatewayTaskTaskRole") + "}");
    assertThat(exporters).isEqualTo(expected);
  }

  @Test
  void onlyConsoleApiReadsTracesBackFromXray() {
    // The document view's trace (decision 1830): no other role reads spans, and none writes more.
    List<Statement> xray =
        statements.stream()
            .filter(s -> s.actions().stream().anyMatch(a -> a.startsWith("xray:")))
            .filter(s -> !s.actions().contains("xray:PutTraceSegments"))
            .toList();
    assertThat(xray).hasSize(1);
    assertThat(xray.getFirst().actions())
        .containsExactlyInAnyOrder("xray:GetTraceSummaries", "xray:BatchGetTraces");
    assertThat(xray.getFirst().resources()).containsExactly("*");
    assertThat(xray.getFirst().roles())
        .containsExactly("${" + roleId("FunctionsConsoleApiServiceRole") + "}");
  }

  /** {@code graph-admin} as its construct ids spell it: {@code GraphAdmin}. */
  private static String pascal(String id) {
    StringBuilder out = new StringBuilder();
    for (String part : id.split("-")) {
      out.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
    }
    return out.toString();
  }

  @Test
  void onlyMigrateAndTheProxyReadTheDatabaseSecret() {
    Set<String> readers =
        statements.stream()
            .filter(s -> s.actions().contains("secretsmanager:GetSecretValue"))
            .flatMap(s -> s.roles().stream())
            .collect(Collectors.toSet());
    assertThat(readers)
        .hasSize(2)
        .anyMatch(r -> r.startsWith("${FunctionsMigrateServiceRole"))
        .anyMatch(r -> r.startsWith("${DatabaseClusterProxyIAMRole"));
  }

  @Test
  void dispatchMayCompleteAMemoizedHopButNeverFailOrHeartbeatOne() {
    List<String> actions =
        PolicyDocuments.forRole(template, roleId("FunctionsDispatchServiceRole")).stream()
            .flatMap(s -> s.actions().stream())
            .toList();
    assertThat(actions)
        .as("a memoized hop is closed by dispatch itself (decision 1812)")
        .contains("states:SendTaskSuccess")
        .doesNotContain("states:SendTaskFailure", "states:SendTaskHeartbeat");
  }

  @Test
  void aDirectCompleteMayCompleteTheNextHopsMemoButNeverFailOrHeartbeatIt() {
    List<String> actions =
        PolicyDocuments.forRole(template, roleId("FunctionsCompleteServiceRole")).stream()
            .flatMap(s -> s.actions().stream())
            .toList();
    assertThat(actions)
        .as("a direct Complete dispatches the next hop and may close it from a memo (1842)")
        .contains("states:SendTaskSuccess")
        .doesNotContain("states:SendTaskFailure", "states:SendTaskHeartbeat");
  }

  @Test
  void functionsThatDoNotStoreDocumentsCannotWriteThem() {
    for (String fn :
        List.of(
            "Dispatch",
            "IndexingLedger",
            "Retention",
            // Validation only reads; a replay page may save a re-fetched intake copy (1524).
            "ReplayValidate",
            "Migrate",
            "GraphAdmin",
            "ConsoleApi",
            "Reconciler")) {
      List<String> writes =
          PolicyDocuments.forRole(template, roleId("Functions" + fn + "ServiceRole")).stream()
              .flatMap(s -> s.actions().stream())
              .filter(a -> a.equals("s3:PutObject") || a.startsWith("s3:DeleteObject"))
              .toList();
      assertThat(writes).as(fn + " writing documents").isEmpty();
    }
  }

  @Test
  void onlyAwsManagedLambdaAndEcsPoliciesAreAttached() {
    Set<String> managed = new HashSet<>();
    template
        .findResources("AWS::IAM::Role")
        .values()
        .forEach(
            role -> {
              @SuppressWarnings("unchecked")
              Map<String, Object> props = (Map<String, Object>) role.get("Properties");
              Object arns = props.get("ManagedPolicyArns");
              if (arns instanceof List<?> list) {
                list.forEach(a -> managed.add(PolicyDocuments.render(a)));
              }
            });
    // The stack's own managed policies (the operators') are in the template, named statements
    // that IamPolicyTest and their construct tests read like every other.
    Set<String> own = new HashSet<>();
    template
        .findResources("AWS::IAM::ManagedPolicy")
        .keySet()
        .forEach(id -> own.add("${" + id + "}"));
    // Logs and VPC networking for Lambda; nothing that grants data access.
    assertThat(managed)
        .allMatch(
            a ->
                own.contains(a)
                    || a.endsWith(":iam::aws:policy/service-role/AWSLambdaBasicExecutionRole")
                    || a.endsWith(":iam::aws:policy/service-role/AWSLambdaVPCAccessExecutionRole"));
  }

  static String roleId(String prefix) {
    return roleIdIn(template, prefix);
  }

  static String roleIdIn(Template template, String prefix) {
    return template.findResources("AWS::IAM::Role").keySet().stream()
        .filter(id -> id.startsWith(prefix))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no role " + prefix + "*"));
  }
}
