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
import software.amazon.awscdk.services.cognito.CfnUserPoolGroup;
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
 *
 * <p>Which role a user's credentials are a session of is the user's group (decision 1753): the
 * group {@value #PLATFORM_GROUP} hands out the role of every account, each group {@code
 * account-<id>} a role the console API grants that account alone. The identity pool takes the role
 * from the ID token's group claim and denies credentials to a user in no group, so adding a user
 * grants nothing until an administrator puts them in a group.
 */
public final class ConsoleSignIn extends Construct {

  /** The group whose members operate every account. */
  public static final String PLATFORM_GROUP = "platform-operators";

  /** The group of one account's operators. */
  public static String accountGroup(String accountId) {
    return "account-" + accountId;
  }

  /**
   * @param namePrefix the environment prefix, e.g. {@code protomolt-dev}
   * @param api the console's HTTP API, the one thing the roles may call
   * @param retain whether the user pool outlives the stack (its users are people's accounts)
   * @param operatorAccounts the accounts that get a group of their own operators
   */
  public record Props(
      String namePrefix, HttpApi api, boolean retain, List<String> operatorAccounts) {
    public Props {
      if (namePrefix == null || namePrefix.isBlank()) {
        throw new IllegalArgumentException("console sign-in: namePrefix is required");
      }
      if (api == null) {
        throw new IllegalArgumentException("console sign-in: the console's HTTP API is required");
      }
      operatorAccounts = operatorAccounts == null ? List.of() : List.copyOf(operatorAccounts);
    }

    /** Platform operators only. */
    public Props(String namePrefix, HttpApi api, boolean retain) {
      this(namePrefix, api, retain, List.of());
    }
  }

  private final UserPool users;
  private final UserPoolClient client;
  private final CfnIdentityPool identities;
  private final Role operatorRole;
  private final Map<String, Role> accountRoles = new LinkedHashMap<>();

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
    this.operatorRole =
        signInRole(
            "OperatorRole",
            "Console operators of every account of "
                + props.namePrefix()
                + ", signed in with Cognito",
            props.api());
    CfnUserPoolGroup.Builder.create(this, "PlatformOperators")
        .userPoolId(users.getUserPoolId())
        .groupName(PLATFORM_GROUP)
        .description("Operators of every account: graphs, deploys and every account's documents")
        .roleArn(operatorRole.getRoleArn())
        // The lowest precedence wins when a user is in several groups: the widest grant.
        .precedence(0)
        .build();
    int precedence = 1;
    for (String account : props.operatorAccounts()) {
      Role role =
          signInRole(
              "AccountOperatorRole-" + account,
              "Console operators of account " + account + " of " + props.namePrefix(),
              props.api());
      accountRoles.put(account, role);
      CfnUserPoolGroup.Builder.create(this, "AccountOperators-" + account)
          .userPoolId(users.getUserPoolId())
          .groupName(accountGroup(account))
          .description("Operators of account " + account + " alone")
          .roleArn(role.getRoleArn())
          .precedence(precedence++)
          .build();
    }
    // A signed-in user in no group matches no role and gets no credentials (Deny): the pool's
    // default role is never handed out, and it may do nothing should it ever be.
    Role ungrouped =
        Role.Builder.create(this, "UngroupedRole")
            .description("Never handed out: console users in no group get no credentials")
            .assumedBy(cognitoIdentities())
            .maxSessionDuration(Duration.hours(1))
            .build();
    CfnIdentityPoolRoleAttachment.Builder.create(this, "Roles")
        .identityPoolId(identities.getRef())
        .roles(Map.of("authenticated", ungrouped.getRoleArn()))
        .roleMappings(
            Map.of(
                "operators",
                CfnIdentityPoolRoleAttachment.RoleMappingProperty.builder()
                    .identityProvider(
                        users.getUserPoolProviderName() + ":" + client.getUserPoolClientId())
                    .type("Token")
                    .ambiguousRoleResolution("Deny")
                    .build()))
        .build();
  }

  /**
   * Only this identity pool's signed-in identities may assume a sign-in role (Cognito's documented
   * trust conditions).
   */
  private FederatedPrincipal cognitoIdentities() {
    return new FederatedPrincipal(
        "cognito-identity.amazonaws.com",
        Map.of(
            "StringEquals",
            Map.of("cognito-identity.amazonaws.com:aud", identities.getRef()),
            "ForAnyValue:StringLike",
            Map.of("cognito-identity.amazonaws.com:amr", "authenticated")),
        "sts:AssumeRoleWithWebIdentity");
  }

  /** A role a group hands out: an hour at most, allowed to invoke the console API alone. */
  private Role signInRole(String id, String description, HttpApi api) {
    Role role =
        Role.Builder.create(this, id)
            .description(description)
            .assumedBy(cognitoIdentities())
            .maxSessionDuration(Duration.hours(1))
            .build();
    role.addToPolicy(
        PolicyStatement.Builder.create()
            .actions(List.of("execute-api:Invoke"))
            .resources(
                List.of(
                    Stack.of(this)
                        .formatArn(
                            ArnComponents.builder()
                                .service("execute-api")
                                .resource(api.getApiId())
                                .resourceName("*")
                                .arnFormat(ArnFormat.SLASH_RESOURCE_NAME)
                                .build())))
            .build());
    return role;
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

  /** The role of the {@value #PLATFORM_GROUP} group: operators of every account. */
  public Role operatorRole() {
    return operatorRole;
  }

  /**
   * What the console API grants each group's role, in the gateway's operator syntax: the platform
   * role every account, each account's role that account alone.
   */
  public Map<String, List<String>> operatorGrants() {
    Map<String, List<String>> grants = new LinkedHashMap<>();
    grants.put(operatorRole.getRoleArn(), List.of("*"));
    accountRoles.forEach((account, role) -> grants.put(role.getRoleArn(), List.of(account)));
    return grants;
  }
}
