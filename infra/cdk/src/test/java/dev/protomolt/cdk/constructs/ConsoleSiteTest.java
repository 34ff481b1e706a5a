package dev.protomolt.cdk.constructs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.cdk.PolicyDocuments;
import dev.protomolt.cdk.TestEnvironments;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

/**
 * The console in the dev stack: a private assets bucket read only by CloudFront, the HTTP API with
 * IAM authorization on its routes and the console-api function behind it, and that function's
 * grants (graph activation, execution reads, no document writes).
 */
class ConsoleSiteTest {

  private static Template template;

  @BeforeAll
  static void synth() {
    template = TestEnvironments.dev();
  }

  @Test
  void theHttpApiAuthorizesEveryRouteWithIamAndInvokesTheConsoleFunction() {
    template.hasResourceProperties(
        "AWS::ApiGatewayV2::Api",
        Match.objectLike(Map.of("Name", "protomolt-dev-console", "ProtocolType", "HTTP")));
    template.allResourcesProperties(
        "AWS::ApiGatewayV2::Route", Match.objectLike(Map.of("AuthorizationType", "AWS_IAM")));
    template.hasResourceProperties(
        "AWS::ApiGatewayV2::Integration",
        Match.objectLike(Map.of("IntegrationType", "AWS_PROXY", "PayloadFormatVersion", "2.0")));
    template.hasResourceProperties(
        "AWS::Lambda::Permission",
        Match.objectLike(
            Map.of("Action", "lambda:InvokeFunction", "Principal", "apigateway.amazonaws.com")));
  }

  @Test
  void theAssetsAreAPrivateBucketServedThroughCloudFrontWithTheApiUnderApi() {
    template.hasResourceProperties(
        "AWS::CloudFront::Distribution",
        Match.objectLike(
            Map.of(
                "DistributionConfig",
                Match.objectLike(
                    Map.of(
                        "DefaultRootObject",
                        "index.html",
                        "CacheBehaviors",
                        List.of(
                            Match.objectLike(
                                Map.of(
                                    "PathPattern", "/api/*",
                                    "ViewerProtocolPolicy", "https-only"))))))));
    template.resourceCountIs("AWS::CloudFront::OriginAccessControl", 1);
    template.hasResourceProperties(
        "AWS::S3::BucketPolicy",
        Match.objectLike(
            Map.of(
                "PolicyDocument",
                Match.objectLike(
                    Map.of(
                        "Statement",
                        Match.arrayWith(
                            List.of(
                                Match.objectLike(
                                    Map.of(
                                        "Principal",
                                        Map.of("Service", "cloudfront.amazonaws.com"),
                                        "Action",
                                        "s3:GetObject")))))))));
  }

  @Test
  void theConsoleFunctionActivatesGraphsAndReadsExecutionsButWritesNoDocument() {
    List<String> actions =
        PolicyDocuments.forRole(template, roleId()).stream()
            .flatMap(s -> s.actions().stream())
            .toList();
    assertThat(actions)
        .contains(
            "states:CreateStateMachine",
            "states:PublishStateMachineVersion",
            "states:GetExecutionHistory",
            "states:DescribeExecution",
            "iam:PassRole",
            "kafka-cluster:DescribeTopic")
        // It starts the replay machine and reprocessed dead letters' versions (decision 1771).
        .contains("states:StartExecution")
        .noneMatch(a -> a.startsWith("s3:"));
  }

  @Test
  void propsRequireThePrefixAndTheFunction() {
    assertThatThrownBy(() -> new ConsoleSite.Props(" ", null, false))
        .hasMessageContaining("namePrefix");
  }

  private static String roleId() {
    return template.findResources("AWS::IAM::Role").keySet().stream()
        .filter(id -> id.startsWith("FunctionsConsoleApiServiceRole"))
        .findFirst()
        .orElseThrow();
  }
}
