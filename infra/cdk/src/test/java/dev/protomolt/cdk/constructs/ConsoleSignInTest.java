package dev.protomolt.cdk.constructs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.protomolt.cdk.PolicyDocuments;
import dev.protomolt.cdk.TestEnvironments;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

/**
 * The console's operator sign-in in the dev stack (decision 1752): a user pool only an
 * administrator adds to, a public client with the password flow, an identity pool of that client
 * alone whose signed-in identities get one role, and that role may only invoke the console's
 * IAM-authorized HTTP API; the page's settings tell it all of that, and the console API grants the
 * role.
 */
class ConsoleSignInTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static Template template;

  @BeforeAll
  static void synth() {
    template = TestEnvironments.dev();
  }

  @Test
  void operatorsAreCreatedByAnAdministratorAndSignInWithAPublicPasswordClient() {
    template.hasResourceProperties(
        "AWS::Cognito::UserPool",
        Match.objectLike(
            Map.of(
                "UserPoolName",
                "protomolt-dev-console-operators",
                "AdminCreateUserConfig",
                Map.of("AllowAdminCreateUserOnly", true))));
    template.hasResourceProperties(
        "AWS::Cognito::UserPoolClient",
        Match.objectLike(
            Map.of(
                "ClientName",
                "protomolt-dev-console",
                "GenerateSecret",
                false,
                "ExplicitAuthFlows",
                Match.arrayWith(List.of("ALLOW_USER_PASSWORD_AUTH")),
                "PreventUserExistenceErrors",
                "ENABLED")));
  }

  @Test
  void theIdentityPoolAdmitsOnlySignedInOperatorsOfThatClientAndHandsThemTheOperatorRole() {
    template.hasResourceProperties(
        "AWS::Cognito::IdentityPool",
        Match.objectLike(
            Map.of(
                "AllowUnauthenticatedIdentities",
                false,
                "CognitoIdentityProviders",
                List.of(
                    Match.objectLike(
                        Map.of(
                            "ClientId",
                            Map.of("Ref", logicalId("AWS::Cognito::UserPoolClient", "Console")),
                            "ServerSideTokenCheck",
                            true))))));
    String role = logicalId("AWS::IAM::Role", "ConsoleSignInOperatorRole");
    // The role comes from the ID token's group (decision 1753); a user in no group gets none,
    // and the pool's default role, never handed out, may do nothing.
    String ungrouped = logicalId("AWS::IAM::Role", "ConsoleSignInUngroupedRole");
    template.hasResourceProperties(
        "AWS::Cognito::IdentityPoolRoleAttachment",
        Match.objectLike(
            Map.of(
                "Roles",
                Map.of("authenticated", Map.of("Fn::GetAtt", List.of(ungrouped, "Arn"))),
                "RoleMappings",
                Map.of(
                    "operators",
                    Match.objectLike(
                        Map.of("Type", "Token", "AmbiguousRoleResolution", "Deny"))))));
    assertThat(PolicyDocuments.forRole(template, ungrouped)).isEmpty();
    template.hasResourceProperties(
        "AWS::Cognito::UserPoolGroup",
        Match.objectLike(
            Map.of(
                "GroupName",
                "platform-operators",
                "Precedence",
                0,
                "RoleArn",
                Map.of("Fn::GetAtt", List.of(role, "Arn")))));
    String pool = logicalId("AWS::Cognito::IdentityPool", "ConsoleSignIn");
    template.hasResourceProperties(
        "AWS::IAM::Role",
        Match.objectLike(
            Map.of(
                "AssumeRolePolicyDocument",
                Match.objectLike(
                    Map.of(
                        "Statement",
                        List.of(
                            Match.objectLike(
                                Map.of(
                                    "Action",
                                    "sts:AssumeRoleWithWebIdentity",
                                    "Principal",
                                    Map.of("Federated", "cognito-identity.amazonaws.com"),
                                    "Condition",
                                    Map.of(
                                        "StringEquals",
                                        Map.of(
                                            "cognito-identity.amazonaws.com:aud",
                                            Map.of("Ref", pool)),
                                        "ForAnyValue:StringLike",
                                        Map.of(
                                            "cognito-identity.amazonaws.com:amr",
                                            "authenticated"))))))))));
  }

  @Test
  void eachConfiguredAccountHasAGroupWhoseRoleTheConsoleApiGrantsThatAccountAlone() {
    String grants = consoleOperatorPrincipals();
    for (String account : List.of("acme", "beta")) {
      String role = logicalId("AWS::IAM::Role", "ConsoleSignInAccountOperatorRole" + account);
      template.hasResourceProperties(
          "AWS::Cognito::UserPoolGroup",
          Match.objectLike(
              Map.of(
                  "GroupName",
                  "account-" + account,
                  "RoleArn",
                  Map.of("Fn::GetAtt", List.of(role, "Arn")))));
      List<PolicyDocuments.Statement> statements = PolicyDocuments.forRole(template, role);
      assertThat(statements).hasSize(1);
      assertThat(statements.getFirst().actions()).containsExactly("execute-api:Invoke");
      // The rendered grant names the role by its attribute, then '=' and the one account.
      assertThat(grants)
          .containsPattern(java.util.regex.Pattern.quote(role) + "[^;]*=" + account + "(;|$)");
    }
    template.resourceCountIs("AWS::Cognito::UserPoolGroup", 3);
    String ungrouped = logicalId("AWS::IAM::Role", "ConsoleSignInUngroupedRole");
    assertThat(grants).as("the never-handed-out role is granted nothing").doesNotContain(ungrouped);
  }

  @Test
  void theOperatorRoleMayOnlyInvokeTheConsoleApiWhoseEveryRouteNeedsIam() {
    List<PolicyDocuments.Statement> statements =
        PolicyDocuments.forRole(template, logicalId("AWS::IAM::Role", "ConsoleSignInOperatorRole"));
    assertThat(statements).hasSize(1);
    assertThat(statements.getFirst().actions()).containsExactly("execute-api:Invoke");
    assertThat(statements.getFirst().resources())
        .singleElement()
        .asString()
        .contains(logicalId("AWS::ApiGatewayV2::Api", "ConsoleApi"))
        .endsWith("/*");
    template.allResourcesProperties(
        "AWS::ApiGatewayV2::Route", Match.objectLike(Map.of("AuthorizationType", "AWS_IAM")));
    // The page calls the API's own endpoint, so the API answers preflights for the signed headers.
    template.hasResourceProperties(
        "AWS::ApiGatewayV2::Api",
        Match.objectLike(
            Map.of(
                "CorsConfiguration",
                Match.objectLike(
                    Map.of(
                        "AllowHeaders",
                        Match.arrayWith(
                            List.of("authorization", "x-amz-date", "x-amz-security-token")))))));
  }

  @Test
  void thePageSettingsTellTheSiteHowToSignInAndTheConsoleApiGrantsTheRole() throws Exception {
    Map<String, Map<String, Object>> deployments =
        template.findResources("Custom::CDKBucketDeployment");
    String markers =
        JSON.writeValueAsString(
            ((Map<?, ?>) deployments.values().iterator().next().get("Properties"))
                .get("SourceMarkers"));
    assertThat(markers)
        .contains(logicalId("AWS::Cognito::UserPool", "ConsoleSignIn"))
        .contains(logicalId("AWS::Cognito::UserPoolClient", "ConsoleSignIn"))
        .contains(logicalId("AWS::Cognito::IdentityPool", "ConsoleSignIn"));
    // The settings file staged at synth names each field the page reads; the values are deploy-time
    // markers (unquoted tokens CDK fills in), so the file is read as text.
    String settings;
    try (java.util.stream.Stream<java.nio.file.Path> staged =
        java.nio.file.Files.list(TestEnvironments.devAssembly())) {
      java.nio.file.Path file =
          staged
              .map(p -> p.resolve(ConsoleSite.PAGE_SETTINGS))
              .filter(java.nio.file.Files::isRegularFile)
              .findFirst()
              .orElseThrow(() -> new AssertionError("no config.json staged"));
      settings = java.nio.file.Files.readString(file);
    }
    assertThat(settings)
        .contains("\"signIn\":{")
        .contains("\"region\":")
        .contains("\"userPoolId\":")
        .contains("\"clientId\":")
        .contains("\"identityPoolId\":")
        .contains("\"apiEndpoint\":");

    String grants = consoleOperatorPrincipals();
    assertThat(grants)
        .contains("arn:aws:iam::111111111111:role/protomolt-dev-operators=*")
        .contains(logicalId("AWS::IAM::Role", "ConsoleSignInOperatorRole"))
        .contains("=*");
  }

  private static String consoleOperatorPrincipals() {
    return template.findResources("AWS::Lambda::Function").values().stream()
        .map(f -> ((Map<?, ?>) f.get("Properties")).get("Environment"))
        .filter(e -> e != null && e.toString().contains("PROTOMOLT_CONSOLE_OPERATOR_PRINCIPALS"))
        .map(e -> ((Map<?, ?>) ((Map<?, ?>) e).get("Variables")))
        .map(v -> v.get("PROTOMOLT_CONSOLE_OPERATOR_PRINCIPALS"))
        .map(PolicyDocuments::render)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no function is told the console's operators"));
  }

  private static String logicalId(String type, String prefix) {
    return template.findResources(type).keySet().stream()
        .filter(id -> id.startsWith(prefix) || id.startsWith("Console" + prefix))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + type + " starting " + prefix));
  }
}
