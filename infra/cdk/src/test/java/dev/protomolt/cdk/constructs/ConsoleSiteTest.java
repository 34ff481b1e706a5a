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
    assertThatThrownBy(() -> new ConsoleSite.Props(" ", null, false, null))
        .hasMessageContaining("namePrefix");
  }

  @Test
  void propsRefuseASiteWithoutAPage() {
    assertThatThrownBy(
            () ->
                new ConsoleSite.Props(
                    "protomolt-dev",
                    software.amazon.awscdk.services.lambda.Function.fromFunctionArn(
                        new software.amazon.awscdk.Stack(),
                        "Fn",
                        "arn:aws:lambda:eu-west-1:123456789012:function:console-api"),
                    false,
                    TestEnvironments.BASE_DIR.resolve("src")))
        .hasMessageContaining("site must be the console's built site")
        .hasMessageContaining("index.html");
  }

  @Test
  void theBuiltSiteIsUploadedToTheAssetsBucketWithThePageSettingsNamingTheApi() throws Exception {
    Map<String, Map<String, Object>> deployments =
        template.findResources("Custom::CDKBucketDeployment");
    assertThat(deployments).hasSize(1);
    Map<String, Object> properties = properties(deployments.values().iterator().next());
    assertThat(properties.get("DestinationBucketName"))
        .isEqualTo(Map.of("Ref", logicalId("AWS::S3::Bucket", "ConsoleAssets")));
    // Served no-cache rather than invalidated: an invalidation grant would be on every
    // distribution.
    assertThat(properties).doesNotContainKey("DistributionId");
    assertThat(properties.get("SystemMetadata")).isEqualTo(Map.of("cache-control", "no-cache"));
    assertThat(properties.get("Prune")).isEqualTo(true);
    // Two sources: the built site's directory, and config.json with the API filled in at deploy.
    assertThat((List<?>) properties.get("SourceObjectKeys")).hasSize(2);
    String markers =
        new com.fasterxml.jackson.databind.ObjectMapper()
            .writeValueAsString(properties.get("SourceMarkers"));
    assertThat(markers).contains(logicalId("AWS::ApiGatewayV2::Api", "ConsoleApi"));
    // The site is staged into the assembly at synth, offline, from the directory configured.
    try (java.util.stream.Stream<java.nio.file.Path> staged =
        java.nio.file.Files.list(TestEnvironments.devAssembly())) {
      assertThat(
              staged
                  .filter(p -> p.getFileName().toString().startsWith("asset."))
                  .map(p -> p.resolve("index.html"))
                  .filter(java.nio.file.Files::isRegularFile)
                  .map(
                      p -> {
                        try {
                          return java.nio.file.Files.readString(p);
                        } catch (java.io.IOException e) {
                          throw new java.io.UncheckedIOException(e);
                        }
                      }))
          .anySatisfy(page -> assertThat(page).contains("placeholder console"));
    }
  }

  @SuppressWarnings("unchecked") // Template resources are JSON objects.
  private static Map<String, Object> properties(Map<String, Object> resource) {
    return (Map<String, Object>) resource.get("Properties");
  }

  private static String logicalId(String type, String prefix) {
    return template.findResources(type).keySet().stream()
        .filter(id -> id.startsWith(prefix))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + type + " starting " + prefix));
  }

  private static String roleId() {
    return template.findResources("AWS::IAM::Role").keySet().stream()
        .filter(id -> id.startsWith("FunctionsConsoleApiServiceRole"))
        .findFirst()
        .orElseThrow();
  }
}
