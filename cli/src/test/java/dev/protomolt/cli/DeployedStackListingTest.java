package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.localstack.cloud.LocalCloudEndpoints;
import dev.protomolt.localstack.template.DeployedFunction;
import dev.protomolt.localstack.template.TemplatePlan;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.FunctionConfiguration;
import software.amazon.awssdk.services.sfn.model.StateMachineListItem;

/**
 * What an AWS client sees of the running platform is what the template declares: the Lambda API
 * lists exactly the template's functions, each with its template environment resolved, and Step
 * Functions lists the template's state machine, as {@code aws lambda list-functions} and {@code aws
 * stepfunctions list-state-machines} would after {@code cdk deploy}.
 */
@ExtendWith(SharedPlatform.Resolver.class)
class DeployedStackListingTest {

  @Test
  void theLambdaApiListsExactlyTheTemplatesFunctionsWithTheirResolvedEnvironment(
      SharedPlatform shared) {
    LocalPlatform platform = shared.platform();
    TemplatePlan plan = platform.stack().plan();
    LocalCloudEndpoints ep = platform.endpoints();
    List<FunctionConfiguration> listed;
    try (LambdaClient lambda =
        LambdaClient.builder()
            .endpointOverride(ep.lambda().orElseThrow())
            .region(Region.of(ep.region()))
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(ep.accessKeyId(), ep.secretAccessKey())))
            .httpClient(UrlConnectionHttpClient.create())
            .build()) {
      listed = lambda.listFunctionsPaginator().functions().stream().toList();
    }
    Map<String, Map<String, String>> expected =
        plan.functions().stream()
            .collect(
                Collectors.toMap(
                    DeployedFunction::functionName, DeployedFunction::templateEnvironment));
    assertThat(listed)
        .extracting(FunctionConfiguration::functionName)
        .containsExactlyInAnyOrderElementsOf(expected.keySet());
    for (FunctionConfiguration f : listed) {
      assertThat(f.environment().variables())
          .as("%s's environment", f.functionName())
          .isEqualTo(expected.get(f.functionName()))
          // Resolved: no intrinsic function is left as JSON in any value.
          .allSatisfy((k, v) -> assertThat(v).doesNotContain("Fn::", "\"Ref\""));
    }
    assertThat(expected.get(LocalPlatform.GRAPH_ADMIN))
        .containsEntry("PROTOMOLT_ENV", "local")
        .hasEntrySatisfying(
            "PROTOMOLT_PREPARE_FUNCTION_ARN",
            arn -> assertThat(arn).endsWith(":function:protomolt-local-prepare:live"));
  }

  @Test
  void stepFunctionsListsTheTemplatesStateMachine(SharedPlatform shared) {
    List<String> names =
        shared.platform().stepFunctions().listStateMachinesPaginator().stateMachines().stream()
            .map(StateMachineListItem::name)
            .toList();
    assertThat(names).contains(LocalPlatform.REPLAY_MACHINE);
    assertThat(shared.platform().stack().plan().stateMachines())
        .extracting(TemplatePlan.StateMachine::name)
        .containsExactly(LocalPlatform.REPLAY_MACHINE);
  }
}
