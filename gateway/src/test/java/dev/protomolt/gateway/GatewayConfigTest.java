package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.access.BrokerAccess;
import dev.protomolt.access.DatabaseAccess;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GatewayConfigTest {

  static Map<String, String> minimal() {
    Map<String, String> m = new HashMap<>();
    m.put("PROTOMOLT_GATEWAY_MODULES", "parser, chunker");
    m.put("PROTOMOLT_KAFKA_BOOTSTRAP", "127.0.0.1:9092");
    m.put("PROTOMOLT_JDBC_URL", "jdbc:postgresql://127.0.0.1:5432/protomolt");
    return m;
  }

  @Test
  void defaultsFillEverythingButTheEndpoints() {
    GatewayConfig c = GatewayConfig.from(minimal());
    assertThat(c.port()).isEqualTo(18100);
    assertThat(c.modules()).containsExactly("parser", "chunker");
    assertThat(c.consumerGroup()).isEqualTo("protomolt-gateway");
    assertThat(c.partitionCapacity()).isEqualTo(10_000);
    assertThat(c.stepFunctionsEndpoint()).isEmpty();
    assertThat(c.objectStores()).containsOnlyKeys("platform");
    assertThat(c.objectStores().get("platform").endpoint()).isEmpty();
  }

  @Test
  void theAudienceIsTheEnvironmentsGatewayUnlessSetAndABadOneIsRefusedNamingTheKey() {
    assertThat(GatewayConfig.from(minimal()).audience()).isEqualTo("protomolt-local-gateway");
    Map<String, String> m = minimal();
    m.put("PROTOMOLT_ENV", "dev");
    assertThat(GatewayConfig.from(m).audience()).isEqualTo("protomolt-dev-gateway");
    m.put("PROTOMOLT_GATEWAY_AUDIENCE", "protomolt-dev-gateway-eu");
    assertThat(GatewayConfig.from(m).audience()).isEqualTo("protomolt-dev-gateway-eu");
    m.put("PROTOMOLT_GATEWAY_AUDIENCE", "not a name");
    assertThatThrownBy(() -> GatewayConfig.from(m))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("PROTOMOLT_GATEWAY_AUDIENCE: the gateway audience must be");
  }

  @Test
  void accountSharesDefaultToEqualTurnsAndAreReadPerAccountWithAFallback() {
    assertThat(GatewayConfig.from(minimal()).accountShares()).isEqualTo(AccountShares.EQUAL);
    Map<String, String> m = minimal();
    m.put("PROTOMOLT_GATEWAY_ACCOUNT_SHARES", "acct-a=weight:4,rate:50; acct-b=rate:2;*=weight:2");
    AccountShares s = GatewayConfig.from(m).accountShares();
    assertThat(s.of("acct-a").weight()).isEqualTo(4);
    assertThat(s.of("acct-a").recordsPerSecond()).hasValue(50);
    assertThat(s.of("acct-b").weight()).isEqualTo(1);
    assertThat(s.of("acct-b").recordsPerSecond()).hasValue(2);
    assertThat(s.of("anyone-else").weight()).isEqualTo(2);
    assertThat(s.of("anyone-else").recordsPerSecond()).isEmpty();
  }

  @Test
  void badAccountSharesAreRefusedNamingTheKeyTheEntryAndTheRule() {
    Map<String, String> refusals =
        Map.of(
            "acct-a", "each entry must be account=weight:N,rate:N",
            "acct a=weight:2", "the account must be '*' or letters, digits",
            "acct-a=weight:2;acct-a=rate:3", "account acct-a is named twice",
            "*=weight:2;*=weight:3", "account * is named twice",
            "acct-a=speed:3", "each setting must be weight:N or rate:N, got \"speed:3\"",
            "acct-a=weight:2,weight:3", "weight is given twice",
            "acct-a=weight:two", "weight must be a whole number, got \"two\"",
            "acct-a=weight:0", "weight must be between 1 and 1000, got 0",
            "acct-a=rate:100001", "rate must be between 1 and 100000, got 100001",
            "acct-a=weight:2;", "each entry must be account=weight:N,rate:N");
    refusals.forEach(
        (value, rule) -> {
          Map<String, String> m = minimal();
          m.put("PROTOMOLT_GATEWAY_ACCOUNT_SHARES", value);
          assertThatThrownBy(() -> GatewayConfig.from(m))
              .as(value)
              .isInstanceOf(IllegalArgumentException.class)
              .hasMessageStartingWith("PROTOMOLT_GATEWAY_ACCOUNT_SHARES: entry \"")
              .hasMessageContaining(rule);
        });
  }

  @Test
  void theLogBucketIsOptionalAndRefusedNamingItsKeyWhenItIsNoBucketName() {
    assertThat(GatewayConfig.from(minimal()).logBucket()).isEmpty();
    Map<String, String> m = minimal();
    m.put("PROTOMOLT_LOG_BUCKET", "protomolt-dev-123-platform");
    assertThat(GatewayConfig.from(m).logBucket()).contains("protomolt-dev-123-platform");

    m.put("PROTOMOLT_LOG_BUCKET", "Not_A_Bucket");
    assertThatThrownBy(() -> GatewayConfig.from(m))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("PROTOMOLT_LOG_BUCKET: must be an S3 bucket name");

    m.put("PROTOMOLT_LOG_BUCKET", "logs-bucket");
    m.put("PROTOMOLT_S3_CREDENTIALS_REFS", "byo-bucket");
    assertThatThrownBy(() -> GatewayConfig.from(m))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "PROTOMOLT_LOG_BUCKET: the log bucket is reached with credentials reference"
                + " 'platform'");
  }

  @Test
  void theTasksOwnSdkVariablesReachEveryClientItBuilds() {
    Map<String, String> m = minimal();
    m.put("AWS_ENDPOINT_URL_S3", "http://127.0.0.1:9000");
    m.put("AWS_ENDPOINT_URL_SFN", "http://127.0.0.1:8083");
    m.put("AWS_ACCESS_KEY_ID", "AKIAGATEWAYTASK");
    m.put("AWS_SECRET_ACCESS_KEY", "task-secret");
    GatewayConfig c = GatewayConfig.from(m);

    assertThat(c.stepFunctionsEndpoint()).contains(URI.create("http://127.0.0.1:8083"));
    assertThat(c.aws().credentials().resolveCredentials().accessKeyId())
        .isEqualTo("AKIAGATEWAYTASK");
    var platform = c.objectStores().get("platform");
    assertThat(platform.endpoint()).contains(URI.create("http://127.0.0.1:9000"));
    // A bucket cannot be a subdomain of an IP address: the local S3 is addressed path-style.
    assertThat(platform.pathStyle()).isTrue();
    assertThat(platform.credentials().resolveCredentials().accessKeyId())
        .isEqualTo("AKIAGATEWAYTASK");
  }

  @Test
  void theGatewaysOwnSettingsWinOverTheSdkVariables() {
    Map<String, String> m = minimal();
    m.put("AWS_ENDPOINT_URL", "http://127.0.0.1:4566");
    m.put("PROTOMOLT_SFN_ENDPOINT", "http://127.0.0.1:8083");
    m.put("PROTOMOLT_S3_PLATFORM_ENDPOINT", "http://127.0.0.1:9000");
    m.put("PROTOMOLT_S3_PLATFORM_PATH_STYLE", "false");
    GatewayConfig c = GatewayConfig.from(m);

    assertThat(c.stepFunctionsEndpoint()).contains(URI.create("http://127.0.0.1:8083"));
    assertThat(c.objectStores().get("platform").endpoint())
        .contains(URI.create("http://127.0.0.1:9000"));
    assertThat(c.objectStores().get("platform").pathStyle()).isFalse();
  }

  @Test
  void badSdkVariablesAreRefusedNamingThem() {
    Map<String, String> halfKey = minimal();
    halfKey.put("AWS_ACCESS_KEY_ID", "AKIAGATEWAYTASK");
    assertThatThrownBy(() -> GatewayConfig.from(halfKey))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("AWS_SECRET_ACCESS_KEY: required when AWS_ACCESS_KEY_ID is set, but not set");
    Map<String, String> badEndpoint = minimal();
    badEndpoint.put("AWS_ENDPOINT_URL_SFN", "localhost:8083");
    assertThatThrownBy(() -> GatewayConfig.from(badEndpoint))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("AWS_ENDPOINT_URL_SFN: must be an absolute http(s) URL");
  }

  @Test
  void callersAreVerifiedAtTheRegionalStsUnlessOverriddenAndNobodyIsAllowedByDefault() {
    Map<String, String> m = minimal();
    m.put("AWS_REGION", "eu-west-1");
    GatewayConfig c = GatewayConfig.from(m);
    assertThat(c.stsEndpoint()).isEqualTo(URI.create("https://sts.eu-west-1.amazonaws.com"));
    assertThat(c.principals().summary())
        .isEqualTo("0 module principal(s), 0 operator principal(s)");

    m.put("AWS_ENDPOINT_URL_STS", "http://127.0.0.1:18160");
    m.put("PROTOMOLT_GATEWAY_MODULE_PRINCIPALS", "parser=arn:aws:iam::123456789012:role/parser");
    m.put("PROTOMOLT_GATEWAY_OPERATOR_PRINCIPALS", "arn:aws:iam::123456789012:role/ops=*");
    c = GatewayConfig.from(m);
    assertThat(c.stsEndpoint()).isEqualTo(URI.create("http://127.0.0.1:18160"));
    assertThat(c.principals().summary())
        .isEqualTo("1 module principal(s), 1 operator principal(s)");

    m.put("PROTOMOLT_GATEWAY_OPERATOR_PRINCIPALS", "ops=*");
    assertThatThrownBy(() -> GatewayConfig.from(m))
        .hasMessageContaining("PROTOMOLT_GATEWAY_OPERATOR_PRINCIPALS: 'ops' is not an IAM role");
  }

  @Test
  void endpointsAndCredentialReferencesAreRead() {
    Map<String, String> m = minimal();
    m.put("PROTOMOLT_GATEWAY_PORT", "0");
    m.put("PROTOMOLT_SFN_ENDPOINT", "http://127.0.0.1:8083");
    m.put("PROTOMOLT_S3_CREDENTIALS_REFS", "platform,byo-bucket");
    m.put("PROTOMOLT_S3_BYO_BUCKET_ENDPOINT", "http://127.0.0.1:9000");
    m.put("PROTOMOLT_S3_BYO_BUCKET_PATH_STYLE", "true");
    GatewayConfig c = GatewayConfig.from(m);
    assertThat(c.port()).isZero();
    assertThat(c.stepFunctionsEndpoint()).contains(URI.create("http://127.0.0.1:8083"));
    assertThat(c.objectStores().get("byo-bucket").endpoint())
        .contains(URI.create("http://127.0.0.1:9000"));
    assertThat(c.objectStores().get("byo-bucket").pathStyle()).isTrue();
  }

  @Test
  void diagnosticsAreOffWithNoAdminPortUnlessConfigured() {
    GatewayConfig off = GatewayConfig.from(minimal());
    assertThat(off.diagnostics().enabled()).isFalse();
    assertThat(off.diagnostics().adminPort()).isEmpty();
    assertThat(off.diagnostics().draftsTable()).isEmpty();

    // The drafts probe writes to the graph door's drafts table, so the door is configured too.
    Map<String, String> m = withGraphDoor();
    m.put("PROTOMOLT_DIAGNOSTICS_ENABLED", "true");
    m.put("PROTOMOLT_ADMIN_PORT", "18101");
    m.put("AWS_ENDPOINT_URL_DYNAMODB", "http://127.0.0.1:8000");
    GatewayConfig on = GatewayConfig.from(m);
    assertThat(on.diagnostics().enabled()).isTrue();
    assertThat(on.diagnostics().adminPort()).hasValue(18101);
    assertThat(on.diagnostics().draftsTable()).contains("protomolt-dev-drafts");
    assertThat(on.diagnostics().dynamoDbEndpoint()).contains(URI.create("http://127.0.0.1:8000"));
  }

  @Test
  void effectiveSettingsNameTheirSourceAndTheStackOnlyWhereAStackDeployed() {
    Map<String, String> m = minimal();
    m.put("PROTOMOLT_ENV", "dev");
    m.put("PROTOMOLT_JDBC_PASSWORD", "hunter2");
    var byKey = new HashMap<String, dev.protomolt.gateway.diagnostics.EffectiveSetting>();
    GatewayConfig.from(m).effective().forEach(e -> byKey.put(e.key(), e));
    // The stack sets the module list on ECS; the JDBC URL only ever comes from a local setup.
    assertThat(byKey.get("PROTOMOLT_GATEWAY_MODULES").source()).isEqualTo("stack");
    assertThat(byKey.get("PROTOMOLT_JDBC_URL").source()).isEqualTo("environment");
    assertThat(byKey.get("PROTOMOLT_JDBC_PASSWORD").value()).isEqualTo("<redacted>");
    assertThat(byKey.get("PROTOMOLT_GATEWAY_GROUP").source()).isEqualTo("default");
    assertThat(byKey.get("PROTOMOLT_GATEWAY_GROUP").value()).isEqualTo("protomolt-gateway");
  }

  @Test
  void diagnosticsRefusalsNameTheirKey() {
    Map<String, String> yes = minimal();
    yes.put("PROTOMOLT_DIAGNOSTICS_ENABLED", "yes");
    assertThatThrownBy(() -> GatewayConfig.from(yes))
        .hasMessage("PROTOMOLT_DIAGNOSTICS_ENABLED: must be true or false, got \"yes\"");
    Map<String, String> port = minimal();
    port.put("PROTOMOLT_ADMIN_PORT", "70000");
    assertThatThrownBy(() -> GatewayConfig.from(port))
        .hasMessage("PROTOMOLT_ADMIN_PORT: must be between 0 and 65535, got 70000");
    Map<String, String> dynamo = minimal();
    dynamo.put("AWS_ENDPOINT_URL_DYNAMODB", "dynalite");
    assertThatThrownBy(() -> GatewayConfig.from(dynamo))
        .hasMessageStartingWith("AWS_ENDPOINT_URL_DYNAMODB: must be an absolute");
  }

  @Test
  void everyRefusalNamesItsKeyAndRule() {
    Map<String, String> noModules = minimal();
    noModules.remove("PROTOMOLT_GATEWAY_MODULES");
    assertThatThrownBy(() -> GatewayConfig.from(noModules))
        .hasMessage("PROTOMOLT_GATEWAY_MODULES: required");
    Map<String, String> noBrokers = minimal();
    noBrokers.remove("PROTOMOLT_KAFKA_BOOTSTRAP");
    assertThatThrownBy(() -> GatewayConfig.from(noBrokers))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "PROTOMOLT_KAFKA_BOOTSTRAP or PROTOMOLT_KAFKA_CLUSTER_ARN: one is required by the"
                + " gateway but neither is set");
    Map<String, String> noDatabase = minimal();
    noDatabase.remove("PROTOMOLT_JDBC_URL");
    assertThatThrownBy(() -> GatewayConfig.from(noDatabase))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "PROTOMOLT_JDBC_URL or PROTOMOLT_DB_HOST: one is required by the gateway but neither"
                + " is set");
    Map<String, String> badArn = minimal();
    badArn.remove("PROTOMOLT_KAFKA_BOOTSTRAP");
    badArn.put("PROTOMOLT_KAFKA_CLUSTER_ARN", "protomolt-dev");
    assertThatThrownBy(() -> GatewayConfig.from(badArn))
        .hasMessage(
            "PROTOMOLT_KAFKA_CLUSTER_ARN: must be"
                + " an MSK cluster ARN (arn:...:kafka:...), got \"protomolt-dev\"");
    Map<String, String> halfProxy = minimal();
    halfProxy.remove("PROTOMOLT_JDBC_URL");
    halfProxy.put("PROTOMOLT_DB_HOST", "proxy.example");
    assertThatThrownBy(() -> GatewayConfig.from(halfProxy))
        .hasMessage("PROTOMOLT_DB_NAME: required by the gateway but not set");
    Map<String, String> port = minimal();
    port.put("PROTOMOLT_GATEWAY_PORT", "70000");
    assertThatThrownBy(() -> GatewayConfig.from(port))
        .hasMessage("PROTOMOLT_GATEWAY_PORT: must be between 0 and 65535, got 70000");
    port.put("PROTOMOLT_GATEWAY_PORT", "eighty");
    assertThatThrownBy(() -> GatewayConfig.from(port))
        .hasMessageStartingWith("PROTOMOLT_GATEWAY_PORT: must be a whole number");
    Map<String, String> rate = minimal();
    rate.put("PROTOMOLT_GATEWAY_OPERATOR_RATE", "0");
    assertThatThrownBy(() -> GatewayConfig.from(rate))
        .hasMessage("PROTOMOLT_GATEWAY_OPERATOR_RATE: must be between 1 and 100000, got 0");
    assertThat(GatewayConfig.from(minimal()).operatorCallsPerSecond())
        .isEqualTo(GatewayConfig.DEFAULT_OPERATOR_CALLS_PER_SECOND);
    Map<String, String> module = minimal();
    module.put("PROTOMOLT_GATEWAY_MODULES", "parser,bad topic");
    assertThatThrownBy(() -> GatewayConfig.from(module))
        .hasMessageStartingWith("PROTOMOLT_GATEWAY_MODULES: each entry")
        .hasMessageContaining("bad topic");
    Map<String, String> sfn = minimal();
    sfn.put("PROTOMOLT_SFN_ENDPOINT", "localhost");
    assertThatThrownBy(() -> GatewayConfig.from(sfn))
        .hasMessageStartingWith("PROTOMOLT_SFN_ENDPOINT: must be an absolute URL");
  }

  @Test
  void theStacksIamSettingsNameTheClusterAndTheProxy() {
    Map<String, String> m = minimal();
    m.remove("PROTOMOLT_KAFKA_BOOTSTRAP");
    m.remove("PROTOMOLT_JDBC_URL");
    m.put("AWS_REGION", "eu-west-1");
    m.put(
        "PROTOMOLT_KAFKA_CLUSTER_ARN",
        "arn:aws:kafka:eu-west-1:123456789012:cluster/protomolt-dev/abc");
    m.put("PROTOMOLT_DB_HOST", "proxy.example.eu-west-1.rds.amazonaws.com");
    m.put("PROTOMOLT_DB_NAME", "protomolt");
    m.put("PROTOMOLT_DB_USER", "protomolt");
    GatewayConfig c = GatewayConfig.from(m);
    assertThat(c.brokers())
        .isEqualTo(
            new BrokerAccess.MskIam(
                "arn:aws:kafka:eu-west-1:123456789012:cluster/protomolt-dev/abc"));
    assertThat(c.brokers().connection()).containsEntry("sasl.mechanism", "AWS_MSK_IAM");
    assertThat(c.database())
        .isEqualTo(
            new DatabaseAccess.RdsIam(
                "proxy.example.eu-west-1.rds.amazonaws.com",
                5432,
                "protomolt",
                "protomolt",
                "eu-west-1"));
  }

  @Test
  void anExplicitBootstrapAndJdbcUrlWinOverTheStacksSettings() {
    Map<String, String> m = minimal();
    m.put(
        "PROTOMOLT_KAFKA_CLUSTER_ARN",
        "arn:aws:kafka:eu-west-1:123456789012:cluster/protomolt-dev/abc");
    m.put("PROTOMOLT_DB_HOST", "proxy.example");
    m.put("PROTOMOLT_JDBC_USER", "protomolt");
    m.put("PROTOMOLT_JDBC_PASSWORD", "secret");
    GatewayConfig c = GatewayConfig.from(m);
    assertThat(c.brokers()).isEqualTo(new BrokerAccess.Bootstrap("127.0.0.1:9092"));
    assertThat(c.brokers().connection()).isEmpty();
    assertThat(c.database())
        .isEqualTo(
            new DatabaseAccess.Password(
                "jdbc:postgresql://127.0.0.1:5432/protomolt", "protomolt", "secret"));
  }

  static Map<String, String> withGraphDoor() {
    Map<String, String> m = minimal();
    String fn = "arn:aws:lambda:eu-west-1:111111111111:function:protomolt-dev-";
    m.put("PROTOMOLT_DRAFTS_TABLE", "protomolt-dev-drafts");
    m.put("PROTOMOLT_EXECUTION_ROLE_ARN", "arn:aws:iam::111111111111:role/protomolt-dev-exec");
    m.put("PROTOMOLT_PREPARE_FUNCTION_ARN", fn + "prepare:live");
    m.put("PROTOMOLT_DISPATCH_FUNCTION_ARN", fn + "dispatch:live");
    m.put("PROTOMOLT_COMPLETE_FUNCTION_ARN", fn + "complete:live");
    m.put("PROTOMOLT_DLQ_FUNCTION_ARN", fn + "dlq:live");
    return m;
  }

  @Test
  void theGraphDoorIsServedOnlyWhenConfiguredAndReadsTheSdksDynamoDbEndpoint() {
    assertThat(GatewayConfig.from(minimal()).graphDoor()).isEmpty();

    GraphDoorSettings door = GatewayConfig.from(withGraphDoor()).graphDoor().orElseThrow();
    assertThat(door.draftsTable()).isEqualTo("protomolt-dev-drafts");
    assertThat(door.executionRoleArn()).endsWith(":role/protomolt-dev-exec");
    assertThat(door.prepareArn()).endsWith(":function:protomolt-dev-prepare:live");
    assertThat(door.dlqArn()).endsWith(":function:protomolt-dev-dlq:live");
    assertThat(door.dynamoDbEndpoint()).isEmpty();

    Map<String, String> local = withGraphDoor();
    local.put("AWS_ENDPOINT_URL_DYNAMODB", "http://127.0.0.1:18130");
    assertThat(GatewayConfig.from(local).graphDoor().orElseThrow().dynamoDbEndpoint())
        .contains(URI.create("http://127.0.0.1:18130"));
  }

  @Test
  void everyGraphDoorRefusalNamesItsKeyAndRule() {
    Map<String, String> noTable = withGraphDoor();
    noTable.remove("PROTOMOLT_DRAFTS_TABLE");
    assertThatThrownBy(() -> GatewayConfig.from(noTable))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("PROTOMOLT_DRAFTS_TABLE: required when the graph door");

    Map<String, String> onlyTable = minimal();
    onlyTable.put("PROTOMOLT_DRAFTS_TABLE", "protomolt-dev-drafts");
    assertThatThrownBy(() -> GatewayConfig.from(onlyTable))
        .hasMessageStartingWith("PROTOMOLT_EXECUTION_ROLE_ARN: required");

    Map<String, String> badTable = withGraphDoor();
    badTable.put("PROTOMOLT_DRAFTS_TABLE", "no spaces allowed");
    assertThatThrownBy(() -> GatewayConfig.from(badTable))
        .hasMessageStartingWith("PROTOMOLT_DRAFTS_TABLE: must be a DynamoDB table name");

    Map<String, String> badRole = withGraphDoor();
    badRole.put("PROTOMOLT_EXECUTION_ROLE_ARN", "protomolt-dev-exec");
    assertThatThrownBy(() -> GatewayConfig.from(badRole))
        .hasMessageStartingWith("PROTOMOLT_EXECUTION_ROLE_ARN: must be an IAM role ARN");

    Map<String, String> badFunction = withGraphDoor();
    badFunction.put("PROTOMOLT_DLQ_FUNCTION_ARN", "arn:aws:iam::111111111111:role/not-a-function");
    assertThatThrownBy(() -> GatewayConfig.from(badFunction))
        .hasMessageStartingWith("PROTOMOLT_DLQ_FUNCTION_ARN: must be a Lambda function ARN");

    Map<String, String> badEndpoint = withGraphDoor();
    badEndpoint.put("AWS_ENDPOINT_URL_DYNAMODB", "dynalite");
    assertThatThrownBy(() -> GatewayConfig.from(badEndpoint))
        .hasMessageStartingWith("AWS_ENDPOINT_URL_DYNAMODB: must be an absolute URL");
  }
}
