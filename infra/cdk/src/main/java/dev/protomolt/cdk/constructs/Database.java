package dev.protomolt.cdk.constructs;

import java.util.ArrayList;
import java.util.List;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.ec2.ISecurityGroup;
import software.amazon.awscdk.services.ec2.IVpc;
import software.amazon.awscdk.services.ec2.Peer;
import software.amazon.awscdk.services.ec2.Port;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.ec2.SubnetSelection;
import software.amazon.awscdk.services.iam.IGrantable;
import software.amazon.awscdk.services.rds.AuroraPostgresClusterEngineProps;
import software.amazon.awscdk.services.rds.AuroraPostgresEngineVersion;
import software.amazon.awscdk.services.rds.BackupProps;
import software.amazon.awscdk.services.rds.CfnDBCluster;
import software.amazon.awscdk.services.rds.ClusterInstance;
import software.amazon.awscdk.services.rds.Credentials;
import software.amazon.awscdk.services.rds.DatabaseCluster;
import software.amazon.awscdk.services.rds.DatabaseClusterEngine;
import software.amazon.awscdk.services.rds.DatabaseProxy;
import software.amazon.awscdk.services.rds.DatabaseProxyOptions;
import software.amazon.awscdk.services.rds.IClusterInstance;
import software.amazon.awscdk.services.rds.ServerlessV2ClusterInstanceProps;
import software.amazon.awscdk.services.secretsmanager.ISecret;
import software.constructs.Construct;

/**
 * The ledger database: Aurora PostgreSQL 17 Serverless v2 (the major the local cloud runs), its
 * master credentials in a Secrets Manager secret, and an RDS Proxy in front. The cluster sits in
 * subnets with no route out; the proxy sits where it can reach Secrets Manager. Functions connect to
 * the proxy with IAM authentication, so no function but migrate ever reads the secret; the proxy
 * pools connections so a burst of Lambdas does not exhaust the database.
 */
public final class Database extends Construct {

  /** The database and the one login every function uses through the proxy. */
  public static final String DATABASE_NAME = "protomolt";

  public static final String USER = "protomolt";
  public static final int PORT = 5432;

  /** Validated settings. */
  public record Props(
      IVpc vpc,
      SubnetSelection subnets,
      SubnetSelection proxySubnets,
      double minCapacityAcu,
      double maxCapacityAcu,
      int readers,
      int backupRetentionDays,
      boolean deletionProtection,
      boolean retainOnDelete) {
    public Props {
      if (vpc == null || subnets == null || proxySubnets == null) {
        throw new IllegalArgumentException("database: vpc, subnets and proxy subnets are required");
      }
      if (minCapacityAcu < 0.5 || maxCapacityAcu > 256 || maxCapacityAcu < minCapacityAcu) {
        throw new IllegalArgumentException(
            "database capacity: need 0.5 <= min <= max <= 256 ACUs"
                + " (got "
                + minCapacityAcu
                + ".."
                + maxCapacityAcu
                + ")");
      }
      if (readers < 0 || readers > 15) {
        throw new IllegalArgumentException("database.readers: 0 to 15 (got " + readers + ")");
      }
      if (backupRetentionDays < 1 || backupRetentionDays > 35) {
        throw new IllegalArgumentException(
            "database.backupRetentionDays: 1 to 35 (got " + backupRetentionDays + ")");
      }
    }
  }

  private final DatabaseCluster cluster;
  private final DatabaseProxy proxy;
  private final SecurityGroup proxySecurityGroup;

  public Database(Construct scope, String id, Props props) {
    super(scope, id);
    SecurityGroup clusterSecurityGroup =
        SecurityGroup.Builder.create(this, "ClusterSecurityGroup")
            .vpc(props.vpc())
            .description("Aurora: reachable only from the RDS Proxy")
            .allowAllOutbound(false)
            .build();
    this.proxySecurityGroup =
        SecurityGroup.Builder.create(this, "ProxySecurityGroup")
            .vpc(props.vpc())
            .description("RDS Proxy: reachable from the functions and the gateway")
            .allowAllOutbound(false)
            .build();
    clusterSecurityGroup.addIngressRule(proxySecurityGroup, Port.tcp(PORT), "proxy to Aurora");
    proxySecurityGroup.addEgressRule(clusterSecurityGroup, Port.tcp(PORT), "proxy to Aurora");
    // The proxy reads the credentials secret from Secrets Manager's HTTPS endpoint.
    proxySecurityGroup.addEgressRule(Peer.anyIpv4(), Port.tcp(443), "proxy to Secrets Manager");

    List<IClusterInstance> readers = new ArrayList<>();
    for (int i = 1; i <= props.readers(); i++) {
      readers.add(
          ClusterInstance.serverlessV2(
              "Reader" + i,
              ServerlessV2ClusterInstanceProps.builder().scaleWithWriter(true).build()));
    }
    this.cluster =
        DatabaseCluster.Builder.create(this, "Cluster")
            .engine(
                DatabaseClusterEngine.auroraPostgres(
                    AuroraPostgresClusterEngineProps.builder()
                        .version(AuroraPostgresEngineVersion.VER_17_9)
                        .build()))
            .credentials(Credentials.fromGeneratedSecret(USER))
            .defaultDatabaseName(DATABASE_NAME)
            .port(PORT)
            .writer(ClusterInstance.serverlessV2("Writer"))
            .readers(readers)
            .serverlessV2MinCapacity(props.minCapacityAcu())
            .serverlessV2MaxCapacity(props.maxCapacityAcu())
            .vpc(props.vpc())
            .vpcSubnets(props.subnets())
            .securityGroups(List.of(clusterSecurityGroup))
            .storageEncrypted(true)
            .iamAuthentication(true)
            .backup(
                BackupProps.builder().retention(Duration.days(props.backupRetentionDays())).build())
            .deletionProtection(props.deletionProtection())
            .removalPolicy(props.retainOnDelete() ? RemovalPolicy.SNAPSHOT : RemovalPolicy.DESTROY)
            .build();
    this.proxy =
        cluster.addProxy(
            "Proxy",
            DatabaseProxyOptions.builder()
                .vpc(props.vpc())
                .vpcSubnets(props.proxySubnets())
                .secrets(List.of(cluster.getSecret()))
                .securityGroups(List.of(proxySecurityGroup))
                .iamAuth(true)
                .requireTls(true)
                .build());
  }

  /** Opens the proxy's port to {@code client}'s security group. */
  public void allowFrom(ISecurityGroup client, String description) {
    proxySecurityGroup.addIngressRule(client, Port.tcp(PORT), description);
  }

  /** IAM-authenticated login through the proxy as {@link #USER}. */
  public void grantConnect(IGrantable grantee) {
    proxy.grantConnect(grantee, USER);
  }

  /** Read the master secret: only the migrate function, which owns the schema, needs this. */
  public void grantSecretRead(IGrantable grantee) {
    cluster.getSecret().grantRead(grantee);
  }

  public String proxyEndpoint() {
    return proxy.getEndpoint();
  }

  /**
   * The cluster's {@code Endpoint.Port} attribute: the proxy listens on the engine's port, and the
   * attribute (rather than the literal {@link #PORT}) is what a deployer that runs its own database
   * on another port (the local cloud) resolves to that port.
   */
  public String port() {
    return ((CfnDBCluster) cluster.getNode().getDefaultChild()).getAttrEndpointPort();
  }

  public ISecret secret() {
    return cluster.getSecret();
  }

  public DatabaseCluster cluster() {
    return cluster;
  }
}
