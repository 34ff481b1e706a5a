package dev.protomolt.cdk.constructs;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.ArnFormat;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.apigatewayv2.HttpApi;
import software.amazon.awscdk.services.cognito.AccountRecovery;
import software.amazon.awscdk.services.cognito.AuthFlow;
import software.amazon.awscdk.services.cognito.CfnIdentityPool;
import software.amazon.awscdk.services.cognito.CfnIdentityPoolRoleAttachment;
import software.amazon.awscdk.services.cognito.Mfa;
import software.amazon.awscdk.services.cognito.PasswordPolicy;
import software.amazon.awscdk.services.cognito.SignInAliases;
import software.amazon.awscdk.services.cognito.UserPool;
import software.amazon.awscdk.services.cognito.UserPoolClient;
import software.amazon.awscdk.services.cognito.UserPoolClientOptions;
import software.amazon.awscdk.services.iam.FederatedPrincipal;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.Role;
import software.constructs.Construct;

/**
 * How an operator signs in to the console from a browser (decision 1752): a Cognito user pool of
 * the environment's operators (no self sign-up: an administrator creates each one), an identity
 * pool that trades a signed-in user's ID token for temporary credentials of one role, and that
 * role, allowed to invoke the console's HTTP API and nothing else. The page SigV4-signs its API
 * calls with those credentials, so the HTTP API keeps its IAM authorization and SigV4 clients (the
 * CLI, scripts) keep working unchanged. What a signed-in operator may see and do is the console
 * API's operator grants for that role.
 */
public final class ConsoleSignIn extends Construct {

  /**
   * @param namePrefix the environment prefix, e.g. {@code protomolt-dev}
   * @param api the console's HTTP API, the one thing the role may call
   * @param retain whether the user pool outlives the stack (its users are people's accounts)
   */
  public record Props(String namePrefix, HttpApi api, boolean retain) {
    public Props {
      if (namePrefix == null || namePrefix.isBlank()) {
        throw new IllegalArgumentException("console sign-in: namePrefix is required");
      }
      if (api == null) {
        throw new IllegalArgumentException("console sign-in: the console's HTTP API is required");
      }
    }
  }

  private final UserPool users;
  private final UserPoolClient client;
  private final CfnIdentityPool identities;
  private final Role operatorRole;

  public ConsoleSignIn(Construct scope, String id, Props props) {
    super(scope, id);
    this.users =
        UserPool.Builder.create(this, "Operators")
            .userPoolName(props.namePrefix() + "-console-operators")
            .selfSignUpEnabled(false)
            .signInAliases(SignInAliases.builder().username(true).email(true).build())
            .passwordPolicy(
                PasswordPolicy.builder()
                    .minLength(12)
                    .requireDigits(true)
                    .requireLowercase(true)
                    .requireUppercase(true)
                    .requireSymbols(false)
                    .tempPasswordValidity(Duration.days(3))
                    .build())
            // Off until the page answers an MFA challenge: a user who turned TOTP on could not
            // sign in to the console (decision 1752).
            .mfa(Mfa.OFF)
            // An administrator resets a forgotten password; no e-mail or SMS channel to secure.
            .accountRecovery(AccountRecovery.NONE)
            .removalPolicy(props.retain() ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY)
            .build();
    // A public client (a page cannot keep a secret) with the password flow only: the page posts
    // the password to Cognito over TLS and keeps the tokens in memory. No hosted UI or OAuth
    // redirects, so no callback URL has to name the distribution's domain.
    this.client =
        users.addClient(
            "Console",
            UserPoolClientOptions.builder()
                .userPoolClientName(props.namePrefix() + "-console")
                .generateSecret(false)
                .authFlows(AuthFlow.builder().userPassword(true).build())
                .disableOAuth(true)
                .preventUserExistenceErrors(true)
                .idTokenValidity(Duration.hours(1))
                .accessTokenValidity(Duration.hours(1))
                .refreshTokenValidity(Duration.hours(12))
                .build());
    this.identities =
        CfnIdentityPool.Builder.create(this, "Identities")
            .identityPoolName(props.namePrefix().replace('-', '_') + "_console")
            .allowUnauthenticatedIdentities(false)
            .allowClassicFlow(false)
            .cognitoIdentityProviders(
                List.of(
                    CfnIdentityPool.CognitoIdentityProviderProperty.builder()
                        .clientId(client.getUserPoolClientId())
                        .providerName(users.getUserPoolProviderName())
                        .serverSideTokenCheck(true)
                        .build()))
            .build();
    // Only this identity pool's signed-in identities may assume the role (Cognito's documented
    // trust conditions), for at most an hour.
    this.operatorRole =
        Role.Builder.create(this, "OperatorRole")
            .description("Console operators of " + props.namePrefix() + ", signed in with Cognito")
            .assumedBy(
                new FederatedPrincipal(
                    "cognito-identity.amazonaws.com",
                    Map.of(
                        "StringEquals",
                        Map.of("cognito-identity.amazonaws.com:aud", identities.getRef()),
                        "ForAnyValue:StringLike",
                        Map.of("cognito-identity.amazonaws.com:amr", "authenticated")),
                    "sts:AssumeRoleWithWebIdentity"))
            .maxSessionDuration(Duration.hours(1))
            .build();
    operatorRole.addToPolicy(
        PolicyStatement.Builder.create()
            .actions(List.of("execute-api:Invoke"))
            .resources(
                List.of(
                    Stack.of(this)
                        .formatArn(
                            ArnComponents.builder()
                                .service("execute-api")
                                .resource(props.api().getApiId())
                                .resourceName("*")
                                .arnFormat(ArnFormat.SLASH_RESOURCE_NAME)
                                .build())))
            .build());
    CfnIdentityPoolRoleAttachment.Builder.create(this, "Roles")
        .identityPoolId(identities.getRef())
        .roles(Map.of("authenticated", operatorRole.getRoleArn()))
        .build();
  }

  /**
   * What the page needs to sign in, for its {@code config.json}: the region, the user pool and its
   * client, and the identity pool.
   */
  public Map<String, Object> pageSettings() {
    Map<String, Object> settings = new LinkedHashMap<>();
    settings.put("region", Stack.of(this).getRegion());
    settings.put("userPoolId", users.getUserPoolId());
    settings.put("clientId", client.getUserPoolClientId());
    settings.put("identityPoolId", identities.getRef());
    return settings;
  }

  public UserPool users() {
    return users;
  }

  /** The role every signed-in operator's credentials are a session of. */
  public Role operatorRole() {
    return operatorRole;
  }
}
