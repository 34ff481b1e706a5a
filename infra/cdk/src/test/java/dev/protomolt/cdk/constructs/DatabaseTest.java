package dev.protomolt.cdk.constructs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.cdk.PolicyDocuments;
import dev.protomolt.cdk.TestEnvironments;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;

class DatabaseTest {

  private static Template template;
  private static Network network;

  @BeforeAll
  static void synth() {
    Stack stack = TestEnvironments.emptyStack();
    network =
        new Network(
            stack,
            "Network",
            new Network.Props("10.1.0.0/16", 1, List.of("eu-west-1a", "eu-west-1b")));
    Database database =
        new Database(
            stack,
            "Database",
            new Database.Props(
                network.vpc(),
                network.dataSubnets(),
                network.appSubnets(),
                0.5,
                4,
                1,
                7,
                true,
                true));
    Role fn =
        Role.Builder.create(stack, "Fn")
            .assumedBy(new ServicePrincipal("lambda.amazonaws.com"))
            .build();
    database.grantConnect(fn);
    template = Template.fromStack(stack);
  }

  @Test
  void auroraPostgres17ServerlessV2Encrypted() {
    template.hasResourceProperties(
        "AWS::RDS::DBCluster",
        Match.objectLike(
            Map.of(
                "Engine",
                "aurora-postgresql",
                "EngineVersion",
                Match.stringLikeRegexp("^17\\."),
                "ServerlessV2ScalingConfiguration",
                Map.of("MinCapacity", 0.5, "MaxCapacity", 4),
                "StorageEncrypted",
                true,
                "BackupRetentionPeriod",
                7,
                "DeletionProtection",
                true,
                "EnableIAMDatabaseAuthentication",
                true,
                "DatabaseName",
                Database.DATABASE_NAME)));
    template.resourceCountIs("AWS::RDS::DBInstance", 2);
    template.allResourcesProperties(
        "AWS::RDS::DBInstance", Match.objectLike(Map.of("DBInstanceClass", "db.serverless")));
    template.hasResource(
        "AWS::RDS::DBCluster", Match.objectLike(Map.of("DeletionPolicy", "Snapshot")));
  }

  @Test
  void credentialsLiveInSecretsManagerAndTheProxyRequiresTlsAndIam() {
    template.resourceCountIs("AWS::SecretsManager::Secret", 1);
    template.hasResourceProperties(
        "AWS::RDS::DBProxy",
        Match.objectLike(
            Map.of(
                "EngineFamily",
                "POSTGRESQL",
                "RequireTLS",
                true,
                "Auth",
                List.of(
                    Match.objectLike(Map.of("AuthScheme", "SECRETS", "IAMAuth", "REQUIRED"))))));
  }

  @Test
  void clientsConnectThroughTheProxyAsTheOneUser() {
    String fn =
        template.findResources("AWS::IAM::Role").keySet().stream()
            .filter(id -> id.startsWith("Fn"))
            .findFirst()
            .orElseThrow();
    var statements = PolicyDocuments.forRole(template, fn);
    assertThat(statements)
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.actions()).containsExactly("rds-db:connect");
              assertThat(s.resources())
                  .singleElement()
                  .asString()
                  .contains(":rds-db:eu-west-1:123456789012:dbuser:")
                  .endsWith("/" + Database.USER);
            });
  }

  @Test
  void theClusterIsReachableOnlyFromTheProxy() {
    template.hasResourceProperties(
        "AWS::EC2::SecurityGroupIngress",
        Match.objectLike(
            Map.of(
                "FromPort",
                Database.PORT,
                "ToPort",
                Database.PORT,
                "SourceSecurityGroupId",
                Match.objectLike(
                    Map.of(
                        "Fn::GetAtt",
                        Match.arrayWith(
                            List.of(Match.stringLikeRegexp("DatabaseProxySecurityGroup.*"))))))));
  }

  @Test
  void propsRejectImpossibleCapacity() {
    assertThatThrownBy(() -> new Database.Props(null, null, null, 1, 2, 0, 1, false, false))
        .hasMessageContaining("vpc, subnets and proxy subnets");
    assertThatThrownBy(
            () ->
                new Database.Props(
                    network.vpc(),
                    network.dataSubnets(),
                    network.appSubnets(),
                    4,
                    2,
                    0,
                    1,
                    false,
                    false))
        .hasMessageContaining("database capacity")
        .hasMessageContaining("4.0..2.0");
    assertThatThrownBy(
            () ->
                new Database.Props(
                    network.vpc(),
                    network.dataSubnets(),
                    network.appSubnets(),
                    1,
                    2,
                    0,
                    36,
                    false,
                    false))
        .hasMessageContaining("database.backupRetentionDays");
  }
}
