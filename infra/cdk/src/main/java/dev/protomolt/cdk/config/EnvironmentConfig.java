package dev.protomolt.cdk.config;

import java.util.List;
import java.util.Map;

/**
 * Everything that differs between dev, staging and prod, as read from {@code config/<env>.json}.
 * The stack code holds no environment-specific value: a new environment is a new file.
 *
 * <p>Numbers are boxed so that a field missing from the file reads as {@code null} and
 * {@link EnvironmentConfigValidator} can name it, instead of silently becoming zero.
 */
public record EnvironmentConfig(
    String name,
    String account,
    String region,
    List<String> availabilityZones,
    Network network,
    Artifacts artifacts,
    Storage storage,
    Database database,
    Messaging messaging,
    Functions functions,
    Gateway gateway,
    Schedules schedules,
    Alarms alarms,
    Console console) {

  /**
   * The console's sign-in (decision 1753), optional: absent means no per-account operators.
   *
   * @param operatorAccounts the accounts whose operators sign in to the console: each gets a user
   *     pool group {@code account-<id>} whose members act on that account alone
   */
  public record Console(List<String> operatorAccounts) {

    /** The accounts named, none when the section or the list is absent. */
    public List<String> accounts() {
      return operatorAccounts == null ? List.of() : operatorAccounts;
    }
  }

  /** The VPC: its address range and how many NAT gateways (the largest fixed network cost). */
  public record Network(String cidr, Integer natGateways) {}

  /**
   * Where the deployables come from. {@code lambdaCode} is the Quarkus function zip (or a directory
   * CDK zips); {@code gatewayImage} is either a directory holding a Dockerfile or an ECR image URI.
   * {@code consoleSite} is the console's built site (a directory holding {@code index.html}),
   * which the stack uploads to the console's assets bucket. Relative paths are resolved against
   * {@code infra/cdk}, the directory the CDK app runs in.
   */
  public record Artifacts(String lambdaCode, String gatewayImage, String consoleSite) {}

  /**
   * Platform buckets. CACHE bodies are reclaimed when their destination hop settles; the
   * lifecycle rule is the backstop that removes staging objects a crash left behind.
   * {@code retentionWindow} (ISO-8601 days, e.g. {@code P30D}) is how long the retention function
   * keeps superseded copies (PROTOMOLT_RETENTION_WINDOW); {@code reconcilerDeletes} lets the
   * reconciler delete the orphans it finds instead of only reporting them (decision 0671).
   */
  public record Storage(
      Integer cacheStagingExpirationDays,
      Boolean retainOnDelete,
      String retentionWindow,
      Boolean reconcilerDeletes) {}

  /** Aurora PostgreSQL Serverless v2 capacity (ACUs), backups and protection. */
  public record Database(
      Double minCapacityAcu,
      Double maxCapacityAcu,
      Integer readers,
      Integer backupRetentionDays,
      Boolean deletionProtection) {}

  /**
   * MSK Serverless topics: the partition count for every platform topic and the module services,
   * each of which gets a {@code pipestream.module.<service>} topic.
   */
  public record Messaging(Integer topicPartitions, List<String> moduleServices) {}

  /**
   * Lambda sizing shared by every function, with per-function memory overrides by name, and
   * whether the hop functions write execution transcripts ({@code executionTranscripts}, optional:
   * absent means on; PROTOMOLT_EXECUTION_TRANSCRIPTS, decision 1675).
   */
  public record Functions(
      Integer memoryMb,
      Integer timeoutSeconds,
      Integer logRetentionDays,
      Integer kafkaBatchSize,
      Map<String, Integer> memoryMbOverrides,
      Boolean executionTranscripts) {

    /** Transcripts are written unless the environment turns them off. */
    public boolean writesExecutionTranscripts() {
      return executionTranscripts == null || executionTranscripts;
    }
  }

  /**
   * The module gateway on Fargate behind a TLS network load balancer.
   *
   * @param internetFacing absent or false: an internal load balancer reachable from the VPC only
   * @param allowedCidrs with {@code internetFacing}, the only IPv4 ranges the listener admits
   *     (required then)
   * @param modulePrincipals module id to the IAM role ARNs whose tasks may serve it
   * @param operatorPrincipals operator role ARN to the accounts it may act on ({@code *}: all)
   * @param accountShares account id (or {@code *} for every account not named) to its weight and
   *     rate limit in a module service's turns (decision 1658); absent: equal turns, no limits
   */
  public record Gateway(
      String certificateArn,
      Boolean internetFacing,
      List<String> allowedCidrs,
      Integer cpuUnits,
      Integer memoryMiB,
      Integer minTasks,
      Integer maxTasks,
      Integer scaleOutBacklog,
      Boolean diagnostics,
      Map<String, List<String>> modulePrincipals,
      Map<String, List<String>> operatorPrincipals,
      Map<String, AccountShare> accountShares) {

    /** Internal unless the configuration says otherwise. */
    public boolean isInternetFacing() {
      return Boolean.TRUE.equals(internetFacing);
    }

    /**
     * Whether the gateway serves its diagnostics probes: only when the config says so, so an
     * environment that never mentions it (prod) runs without them.
     */
    public boolean diagnosticsEnabled() {
      return Boolean.TRUE.equals(diagnostics);
    }
  }

  /**
   * One account's share of each module service's turns on a gateway task.
   *
   * @param weight records per turn (absent: 1)
   * @param recordsPerSecond most records served per second per module service and task (absent:
   *     no limit)
   */
  public record AccountShare(Integer weight, Integer recordsPerSecond) {}

  /** EventBridge Scheduler expressions, e.g. {@code rate(1 hour)} or {@code cron(0 3 * * ? *)}. */
  public record Schedules(String reconciler, String retention) {}

  /** Who hears about trouble, and how many dead letters in five minutes count as trouble. */
  public record Alarms(List<String> emailTargets, Integer deadLetterThreshold) {}

  /** The prefix every named resource of this environment carries, e.g. {@code protomolt-dev}. */
  public String prefix() {
    return "protomolt-" + name;
  }
}
