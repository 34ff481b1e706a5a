package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.lambda.NamedHandlers;
import dev.protomolt.localstack.template.CloudFormationTemplate;
import dev.protomolt.localstack.template.DeployedContainer;
import dev.protomolt.localstack.template.DeployedFunction;
import dev.protomolt.localstack.template.InvalidTemplateException;
import dev.protomolt.localstack.template.LocalServices;
import dev.protomolt.localstack.template.StackContext;
import dev.protomolt.localstack.template.TemplatePlan;
import dev.protomolt.localstack.template.TemplatePlanner;
import dev.protomolt.localstack.template.TemplateProblem;
import java.util.HashSet;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The synthesized local environment's template, checked and resolved as {@code protomolt up} is
 * to deploy it: every resource type is in the local table, every intrinsic resolves, every function
 * names a handler of the zip, and a broken copy is refused naming its resource.
 */
class LocalTemplateTest {

  private static final StackContext STACK =
      new StackContext(LocalTemplate.STACK_NAME, "us-east-1", "000000000000");
  private static final LocalServices POSTGRES = new LocalServices("127.0.0.1", 15432);
  private static final Map<String, String> RUNTIME =
      Map.of("AWS_ENDPOINT_URL_S3", "http://127.0.0.1:18110");

  private static TemplatePlan plan(String json) {
    return TemplatePlanner.plan(
        CloudFormationTemplate.parse(json),
        STACK,
        POSTGRES,
        RUNTIME,
        new ZipFunctionRuntime(),
        new GatewayTaskRuntime());
  }

  @Test
  void everyFunctionOfTheStackRunsAHandlerOfTheZipWithItsEnvironmentResolved() {
    TemplatePlan plan = plan(LocalTemplate.json());
    assertThat(plan.functions())
        .extracting(DeployedFunction::handler)
        .containsExactlyInAnyOrderElementsOf(NamedHandlers.NAMES);
    assertThat(plan.functions())
        .allSatisfy(
            f -> {
              assertThat(f.functionName()).isEqualTo("protomolt-local-" + f.handler());
              assertThat(f.environment())
                  .containsEntry("PROTOMOLT_ENV", "local")
                  .containsEntry("PROTOMOLT_DB_HOST", "127.0.0.1")
                  // The cluster's port attribute resolves to the local database's own port.
                  .containsEntry("PROTOMOLT_DB_PORT", "15432")
                  .containsEntry("AWS_ENDPOINT_URL_S3", "http://127.0.0.1:18110")
                  .containsEntry("AWS_ACCESS_KEY_ID", f.credentials().accessKeyId());
              assertThat(f.environment().get("PROTOMOLT_KAFKA_CLUSTER_ARN"))
                  .startsWith("arn:aws:kafka:us-east-1:000000000000:cluster/protomolt-local/");
              assertThat(f.roleArn()).startsWith("arn:aws:iam::000000000000:role/");
              // Every role's policies are evaluable by the local IAM checks (the ledger connect
              // grant at least).
              assertThat(f.policies()).as(f.functionName()).isNotEmpty();
            });
    Set<String> keys = new HashSet<>();
    plan.functions().forEach(f -> keys.add(f.credentials().accessKeyId()));
    assertThat(keys).as("one access key per function").hasSize(plan.functions().size());
    assertThat(plan.function("protomolt-local-graph-admin").environment())
        .containsEntry(
            "PROTOMOLT_PREPARE_FUNCTION_ARN",
            "arn:aws:lambda:us-east-1:000000000000:function:protomolt-local-prepare:live");
  }

  @Test
  void triggersSchedulesTopicsMigrationAndTheGatewayTaskAreTheStacks() {
    TemplatePlan plan = plan(LocalTemplate.json());
    assertThat(plan.kafkaTriggers())
        .extracting(t -> t.functionName() + "<-" + String.join(",", t.topics()))
        .containsExactlyInAnyOrder(
            "protomolt-local-purge<-storage-purge",
            "protomolt-local-reclaim<-reclaim-requests",
            "protomolt-local-reclaim<-document-deleted",
            "protomolt-local-indexing-ledger<-indexing-receipts",
            "protomolt-local-settlement<-indexing-receipts",
            "protomolt-local-account-events<-account-events");
    assertThat(plan.schedules())
        .extracting(s -> plan.function(s.functionName()).handler() + "@" + s.expression())
        .containsExactlyInAnyOrder("reconciler@rate(6 hours)", "retention@cron(0 3 * * ? *)");
    assertThat(plan.topics())
        .extracting(TemplatePlan.Topic::name)
        .contains("pipeline-events", "indexing-receipts", "pipestream.module.index-sink");
    assertThat(plan.migrations())
        .singleElement()
        .satisfies(m -> assertThat(plan.function(m.functionName()).handler()).isEqualTo("migrate"));
    assertThat(plan.tables())
        .extracting(TemplatePlan.Table::name, TemplatePlan.Table::ttlAttribute)
        .contains(org.assertj.core.groups.Tuple.tuple("protomolt-local-drafts", "expiresAt"));
    // The third is the console's assets bucket (decision 1770), named by CloudFormation.
    assertThat(plan.buckets())
        .extracting(TemplatePlan.Bucket::name)
        .hasSize(3)
        .contains("protomolt-local-000000000000-intake", "protomolt-local-000000000000-platform")
        .anyMatch(name -> name.startsWith("protomolt-local-consoleassets"));
    assertThat(plan.containers())
        .singleElement()
        .satisfies(
            c ->
                assertThat(c.environment())
                    .containsEntry(
                        "PROTOMOLT_GATEWAY_MODULES", "parser,chunker,embedder,index-sink")
                    .containsEntry("PROTOMOLT_DB_HOST", "127.0.0.1"));
  }

  @Test
  void theGatewayTaskListensWhereTheLocalRuntimeIsToldAndKeepsTheRestOfItsEnvironment() {
    DeployedContainer task = plan(LocalTemplate.json()).containers().getFirst();
    assertThat(task.environment()).containsEntry("PROTOMOLT_GATEWAY_PORT", "18100");
    // Local callers sign for the audience the stack gives the task (decision 1511).
    assertThat(task.environment())
        .containsEntry("PROTOMOLT_GATEWAY_AUDIENCE", LocalPrincipals.AUDIENCE);

    Map<String, String> free = new GatewayTaskRuntime(OptionalInt.of(0), null).environmentOf(task);
    assertThat(task.environment()).containsEntry("PROTOMOLT_ADMIN_PORT", "18101");
    assertThat(free)
        .containsEntry("PROTOMOLT_GATEWAY_PORT", "0")
        .containsEntry("PROTOMOLT_ADMIN_PORT", "0");
    Map<String, String> rest = new java.util.HashMap<>(free);
    rest.remove("PROTOMOLT_GATEWAY_PORT");
    rest.remove("PROTOMOLT_ADMIN_PORT");
    Map<String, String> expected = new java.util.HashMap<>(task.environment());
    expected.remove("PROTOMOLT_GATEWAY_PORT");
    expected.remove("PROTOMOLT_ADMIN_PORT");
    assertThat(rest).isEqualTo(expected);
    assertThat(new GatewayTaskRuntime().environmentOf(task)).isEqualTo(task.environment());
  }

  @Test
  void aCopyNamingAHandlerTheZipLacksIsRefusedBeforeAnythingStarts() {
    String json =
        LocalTemplate.json()
            .replace(
                "\"QUARKUS_LAMBDA_HANDLER\": \"intake\"", "\"QUARKUS_LAMBDA_HANDLER\": \"intake2\"")
            .replace(
                "\"QUARKUS_LAMBDA_HANDLER\":\"intake\"", "\"QUARKUS_LAMBDA_HANDLER\":\"intake2\"");
    assertThat(json).contains("intake2");
    assertThatThrownBy(() -> plan(json))
        .isInstanceOfSatisfying(
            InvalidTemplateException.class,
            e ->
                assertThat(e.problems())
                    .singleElement()
                    .satisfies(
                        p -> {
                          assertThat(p.logicalId()).startsWith("FunctionsIntake");
                          assertThat(p.type()).isEqualTo("AWS::Lambda::Function");
                          assertThat(p.rule()).contains("QUARKUS_LAMBDA_HANDLER=intake2");
                        }));
  }

  @Test
  void aCopyWithAResourceTypeTheLocalCloudLacksIsRefusedNamingIt() {
    String json =
        LocalTemplate.json()
            .replaceFirst(
                "\"Resources\"\\s*:\\s*\\{",
                "\"Resources\": {\"Inbox\": {\"Type\": \"AWS::SQS::Queue\", \"Properties\": {}},");
    assertThatThrownBy(() -> plan(json))
        .isInstanceOfSatisfying(
            InvalidTemplateException.class,
            e ->
                assertThat(e.problems())
                    .extracting(TemplateProblem::logicalId, TemplateProblem::type)
                    .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("Inbox", "AWS::SQS::Queue")));
  }
}
