package dev.protomolt.cdk.config;

import dev.protomolt.cdk.PlatformFunction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Checks an {@link EnvironmentConfig} against the rules AWS and the platform impose, collecting
 * every violation (field and rule) before failing, the way a compiler reports all errors at once.
 */
public final class EnvironmentConfigValidator {

  private static final Pattern ENV_NAME = Pattern.compile("[a-z][a-z0-9]{1,15}");
  private static final Pattern ACCOUNT = Pattern.compile("\\d{12}");
  private static final Pattern REGION = Pattern.compile("[a-z]{2}(-gov)?-[a-z]+-\\d");
  private static final Pattern CIDR = Pattern.compile("(\\d{1,3}\\.){3}\\d{1,3}/(1[6-9]|2[0-4])");
  private static final Pattern MODULE_SERVICE = Pattern.compile("[a-z][a-z0-9-]{0,62}");
  private static final Pattern RETENTION_WINDOW = Pattern.compile("P\\d{1,9}D");
  private static final Pattern SCHEDULE = Pattern.compile("(rate|cron)\\(.+\\)");
  private static final Pattern IPV4_CIDR =
      Pattern.compile(
          "((25[0-5]|2[0-4]\\d|1?\\d?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1?\\d?\\d)/(3[0-2]|[12]?\\d)");
  private static final Pattern ROLE_ARN =
      Pattern.compile("arn:aws[a-z-]*:iam::\\d{12}:role/[\\w+=,.@/-]+");
  private static final Pattern EMAIL = Pattern.compile("[^@\\s]+@[^@\\s]+\\.[^@\\s]+");

  /** The retention periods CloudWatch Logs accepts; any other number is rejected at deploy. */
  static final Set<Integer> LOG_RETENTION_DAYS =
      Set.of(
          1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557,
          2922, 3288, 3653);

  /** Fargate's valid CPU units; memory must then fit that size's range (checked below). */
  private static final Set<Integer> FARGATE_CPU = Set.of(256, 512, 1024, 2048, 4096, 8192, 16384);

  private final List<ConfigProblem> problems = new ArrayList<>();

  private EnvironmentConfigValidator() {}

  /** All problems in {@code config}; empty when it is deployable. */
  public static List<ConfigProblem> problems(EnvironmentConfig config) {
    EnvironmentConfigValidator v = new EnvironmentConfigValidator();
    v.check(config);
    return List.copyOf(v.problems);
  }

  /** Throws {@link InvalidConfigException} naming every problem, or returns {@code config}. */
  public static EnvironmentConfig requireValid(String source, EnvironmentConfig config) {
    List<ConfigProblem> found = problems(config);
    if (!found.isEmpty()) {
      throw new InvalidConfigException(source, found);
    }
    return config;
  }

  private void check(EnvironmentConfig c) {
    matches(
        "name",
        c.name(),
        ENV_NAME,
        "must be 2-16 lowercase letters or digits, starting with a letter");
    matches("account", c.account(), ACCOUNT, "must be a 12-digit AWS account id");
    matches("region", c.region(), REGION, "must be an AWS region code such as eu-west-1");
    if (required("availabilityZones", c.availabilityZones())) {
      if (c.availabilityZones().size() < 2) {
        fail("availabilityZones", "must list at least 2 zones (Aurora and MSK need two)");
      }
      if (new HashSet<>(c.availabilityZones()).size() != c.availabilityZones().size()) {
        fail("availabilityZones", "must not repeat a zone");
      }
      for (int i = 0; i < c.availabilityZones().size(); i++) {
        String az = c.availabilityZones().get(i);
        if (az == null || c.region() == null || !az.matches(Pattern.quote(c.region()) + "[a-z]")) {
          fail(
              "availabilityZones[" + i + "]",
              "must be a zone of region " + c.region() + " such as " + c.region() + "a");
        }
      }
    }
    network(c.network());
    artifacts(c.artifacts());
    storage(c.storage());
    database(c.database());
    messaging(c.messaging());
    functions(c.functions());
    gateway(
        c.gateway(),
        c.region(),
        c.account(),
        c.messaging() == null ? null : c.messaging().moduleServices());
    schedules(c.schedules());
    alarms(c.alarms());
    console(c.console());
  }

  /**
   * Each account becomes a Cognito group {@code account-<id>} (at most 128 characters) and a
   * grant in the console's operator principals, so ids are held to what both accept.
   */
  private void console(EnvironmentConfig.Console c) {
    if (c == null || c.operatorAccounts() == null) {
      return;
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < c.operatorAccounts().size(); i++) {
      String account = c.operatorAccounts().get(i);
      String field = "console.operatorAccounts[" + i + "]";
      if (account == null || !account.matches("[A-Za-z0-9._-]{1,100}")) {
        fail(field, "must be an account id of 1-100 letters, digits, '.', '_' or '-'");
      } else if (!seen.add(account)) {
        fail(field, "must not repeat account '" + account + "'");
      }
    }
  }

  private void network(EnvironmentConfig.Network n) {
    if (!required("network", n)) {
      return;
    }
    matches("network.cidr", n.cidr(), CIDR, "must be an IPv4 CIDR block between /16 and /24");
    range(
        "network.natGateways",
        n.natGateways(),
        1,
        3,
        "Lambdas and the gateway reach AWS APIs through NAT");
  }

  private void artifacts(EnvironmentConfig.Artifacts a) {
    if (!required("artifacts", a)) {
      return;
    }
    // Existence is checked by DeployArtifacts at synth time, where overrides are known.
    required("artifacts.lambdaCode", blankToNull(a.lambdaCode()));
    required("artifacts.gatewayImage", blankToNull(a.gatewayImage()));
    required("artifacts.consoleSite", blankToNull(a.consoleSite()));
  }

  private void storage(EnvironmentConfig.Storage s) {
    if (!required("storage", s)) {
      return;
    }
    range(
        "storage.cacheStagingExpirationDays",
        s.cacheStagingExpirationDays(),
        1,
        365,
        "CACHE bodies are transient");
    required("storage.retainOnDelete", s.retainOnDelete());
    if (matches(
        "storage.retentionWindow",
        s.retentionWindow(),
        RETENTION_WINDOW,
        "must be whole days in ISO-8601, such as P30D")) {
      long days =
          Long.parseLong(s.retentionWindow().substring(1, s.retentionWindow().length() - 1));
      if (days < 1 || days > 3650) {
        fail(
            "storage.retentionWindow",
            "must be between P1D and P3650D (how long superseded copies"
                + " are kept; got "
                + s.retentionWindow()
                + ")");
      }
    }
    required("storage.reconcilerDeletes", s.reconcilerDeletes());
  }

  private void database(EnvironmentConfig.Database d) {
    if (!required("database", d)) {
      return;
    }
    if (required("database.minCapacityAcu", d.minCapacityAcu())) {
      acu("database.minCapacityAcu", d.minCapacityAcu(), 0.5);
    }
    if (required("database.maxCapacityAcu", d.maxCapacityAcu())
        && acu("database.maxCapacityAcu", d.maxCapacityAcu(), 1)) {
      if (d.minCapacityAcu() != null && d.maxCapacityAcu() < d.minCapacityAcu()) {
        fail(
            "database.maxCapacityAcu",
            "must be at least database.minCapacityAcu (" + d.minCapacityAcu() + ")");
      }
    }
    range("database.readers", d.readers(), 0, 15, "Aurora allows at most 15 readers");
    range(
        "database.backupRetentionDays",
        d.backupRetentionDays(),
        1,
        35,
        "Aurora keeps automated backups 1 to 35 days");
    required("database.deletionProtection", d.deletionProtection());
  }

  private boolean acu(String field, double value, double min) {
    // RDS Proxy keeps connections open, so the cluster never pauses: 0 ACU would only mislead.
    if (value < min || value > 256 || value * 2 != Math.floor(value * 2)) {
      fail(field, "must be a multiple of 0.5 between " + min + " and 256 ACUs (got " + value + ")");
      return false;
    }
    return true;
  }

  private void messaging(EnvironmentConfig.Messaging m) {
    if (!required("messaging", m)) {
      return;
    }
    range(
        "messaging.topicPartitions",
        m.topicPartitions(),
        1,
        120,
        "MSK Serverless allows at most 120 partitions per topic");
    if (required("messaging.moduleServices", m.moduleServices())) {
      Set<String> seen = new HashSet<>();
      for (int i = 0; i < m.moduleServices().size(); i++) {
        String service = m.moduleServices().get(i);
        String field = "messaging.moduleServices[" + i + "]";
        if (matches(
                field,
                service,
                MODULE_SERVICE,
                "must be lowercase letters, digits and dashes (it names"
                    + " pipestream.module.<service>)")
            && !seen.add(service)) {
          fail(field, "repeats module service '" + service + "'");
        }
      }
    }
  }

  private void functions(EnvironmentConfig.Functions f) {
    if (!required("functions", f)) {
      return;
    }
    range(
        "functions.memoryMb",
        f.memoryMb(),
        512,
        10240,
        "Java functions need at least 512 MB and Lambda allows at most 10240");
    range("functions.timeoutSeconds", f.timeoutSeconds(), 1, 900, "Lambda allows at most 900 s");
    if (required("functions.logRetentionDays", f.logRetentionDays())
        && !LOG_RETENTION_DAYS.contains(f.logRetentionDays())) {
      fail(
          "functions.logRetentionDays",
          "must be one of CloudWatch Logs' periods "
              + LOG_RETENTION_DAYS.stream().sorted().toList());
    }
    range(
        "functions.kafkaBatchSize",
        f.kafkaBatchSize(),
        1,
        10000,
        "MSK event-source mappings take 1 to 10000 records per batch");
    Map<String, Integer> overrides =
        f.memoryMbOverrides() == null ? Map.of() : f.memoryMbOverrides();
    overrides.forEach(
        (name, mb) -> {
          String field = "functions.memoryMbOverrides." + name;
          if (PlatformFunction.byId(name).isEmpty()) {
            fail(
                field,
                "names no function; known: "
                    + Arrays.stream(PlatformFunction.values()).map(PlatformFunction::id).toList());
          }
          range(field, mb, 512, 10240, "Lambda memory");
        });
  }

  private void gateway(
      EnvironmentConfig.Gateway g, String region, String account, List<String> moduleServices) {
    if (!required("gateway", g)) {
      return;
    }
    if (required("gateway.certificateArn", g.certificateArn())) {
      String expected =
          "arn:aws[a-z-]*:acm:"
              + Pattern.quote(String.valueOf(region))
              + ":"
              + Pattern.quote(String.valueOf(account))
              + ":certificate/[0-9a-f-]{36}";
      if (!g.certificateArn().matches(expected)) {
        fail(
            "gateway.certificateArn",
            "must be an ACM certificate ARN in this environment's"
                + " region and account (arn:aws:acm:"
                + region
                + ":"
                + account
                + ":certificate/<uuid>)");
      }
    }
    if (g.isInternetFacing()) {
      if (g.allowedCidrs() == null || g.allowedCidrs().isEmpty()) {
        fail(
            "gateway.allowedCidrs",
            "an internet-facing gateway must list the IPv4 ranges (CIDR) it admits");
      }
    }
    if (g.allowedCidrs() != null) {
      if (!g.isInternetFacing() && !g.allowedCidrs().isEmpty()) {
        fail(
            "gateway.allowedCidrs",
            "applies to an internet-facing gateway only; an internal one admits its VPC");
      }
      for (int i = 0; i < g.allowedCidrs().size(); i++) {
        String cidr = g.allowedCidrs().get(i);
        if (cidr == null || !IPV4_CIDR.matcher(cidr).matches()) {
          fail("gateway.allowedCidrs[" + i + "]", "must be an IPv4 CIDR such as 203.0.113.0/24");
        }
      }
    }
    if (g.modulePrincipals() != null) {
      List<String> services = moduleServices == null ? List.of() : moduleServices;
      g.modulePrincipals()
          .forEach(
              (module, roles) -> {
                if (!services.contains(module)) {
                  fail(
                      "gateway.modulePrincipals." + module,
                      "names no module service (messaging.moduleServices: " + services + ")");
                }
                roleArns("gateway.modulePrincipals." + module, roles);
              });
    }
    if (g.operatorPrincipals() != null) {
      g.operatorPrincipals()
          .forEach(
              (role, accounts) -> {
                roleArns("gateway.operatorPrincipals", List.of(role));
                if (accounts == null || accounts.isEmpty()) {
                  fail(
                      "gateway.operatorPrincipals." + role,
                      "must list the accounts it may act on, or \"*\" for all");
                } else {
                  for (String tenant : accounts) {
                    if (tenant == null
                        || !(tenant.equals("*") || tenant.matches("[A-Za-z0-9._-]+"))) {
                      fail(
                          "gateway.operatorPrincipals." + role,
                          "account '"
                              + tenant
                              + "' must be \"*\" or letters, digits, '.', '_' or '-'");
                    }
                  }
                }
              });
    }
    if (g.accountShares() != null) {
      g.accountShares()
          .forEach(
              (tenant, share) -> {
                String field = "gateway.accountShares." + tenant;
                if (!(tenant.equals("*") || tenant.matches("[A-Za-z0-9._-]+"))) {
                  fail(field, "the account must be \"*\" or letters, digits, '.', '_' or '-'");
                }
                if (share == null || (share.weight() == null && share.recordsPerSecond() == null)) {
                  fail(field, "must set weight, recordsPerSecond or both");
                  return;
                }
                // The gateway's own bounds (AccountShares), refused here before a deploy.
                if (share.weight() != null && (share.weight() < 1 || share.weight() > 1_000)) {
                  fail(field + ".weight", "must be between 1 and 1000, got " + share.weight());
                }
                if (share.recordsPerSecond() != null
                    && (share.recordsPerSecond() < 1 || share.recordsPerSecond() > 100_000)) {
                  fail(
                      field + ".recordsPerSecond",
                      "must be between 1 and 100000, got " + share.recordsPerSecond());
                }
              });
    }
    if (required("gateway.cpuUnits", g.cpuUnits()) && !FARGATE_CPU.contains(g.cpuUnits())) {
      fail(
          "gateway.cpuUnits",
          "must be a Fargate CPU size " + FARGATE_CPU.stream().sorted().toList());
    }
    if (required("gateway.memoryMiB", g.memoryMiB()) && g.cpuUnits() != null) {
      // Fargate allows 2x to 8x the vCPU count in GiB (0.5-2 GiB for a quarter vCPU).
      int minMiB = g.cpuUnits() == 256 ? 512 : g.cpuUnits() * 2;
      int maxMiB = g.cpuUnits() * 8;
      if (g.memoryMiB() < minMiB || g.memoryMiB() > maxMiB) {
        fail(
            "gateway.memoryMiB",
            "must be between "
                + minMiB
                + " and "
                + maxMiB
                + " MiB for "
                + g.cpuUnits()
                + " CPU units");
      }
    }
    range(
        "gateway.minTasks",
        g.minTasks(),
        0,
        100,
        "0 lets the service scale to zero and wake on dispatches (decision 1654)");
    if (range("gateway.maxTasks", g.maxTasks(), 1, 100, "scaling ceiling")
        && g.minTasks() != null
        && g.maxTasks() < g.minTasks()) {
      fail("gateway.maxTasks", "must be at least gateway.minTasks (" + g.minTasks() + ")");
    }
    range(
        "gateway.scaleOutBacklog",
        g.scaleOutBacklog(),
        1,
        1_000_000,
        "records waiting on module topics before another task starts");
  }

  private void schedules(EnvironmentConfig.Schedules s) {
    if (!required("schedules", s)) {
      return;
    }
    matches("schedules.reconciler", s.reconciler(), SCHEDULE, "must be rate(...) or cron(...)");
    matches("schedules.retention", s.retention(), SCHEDULE, "must be rate(...) or cron(...)");
  }

  private void alarms(EnvironmentConfig.Alarms a) {
    if (!required("alarms", a)) {
      return;
    }
    if (required("alarms.emailTargets", a.emailTargets())) {
      if (a.emailTargets().isEmpty()) {
        fail(
            "alarms.emailTargets",
            "must name at least one address: an alarm nobody hears is no alarm");
      }
      for (int i = 0; i < a.emailTargets().size(); i++) {
        matches(
            "alarms.emailTargets[" + i + "]",
            a.emailTargets().get(i),
            EMAIL,
            "must be an email address");
      }
    }
    range(
        "alarms.deadLetterThreshold",
        a.deadLetterThreshold(),
        1,
        1_000_000,
        "dead letters per five minutes that raise the alarm");
  }

  private void roleArns(String field, List<String> roles) {
    if (roles == null || roles.isEmpty()) {
      fail(field, "must list at least one IAM role ARN");
      return;
    }
    for (String role : roles) {
      if (role == null || !ROLE_ARN.matcher(role).matches()) {
        fail(field, "'" + role + "' must be an IAM role ARN (arn:aws:iam::<account>:role/<name>)");
      }
    }
  }

  private boolean required(String field, Object value) {
    if (value == null) {
      fail(field, "is required");
      return false;
    }
    return true;
  }

  private boolean matches(String field, String value, Pattern pattern, String rule) {
    if (!required(field, value)) {
      return false;
    }
    if (!pattern.matcher(value).matches()) {
      fail(field, rule + " (got '" + value + "')");
      return false;
    }
    return true;
  }

  private boolean range(String field, Integer value, int min, int max, String why) {
    if (!required(field, value)) {
      return false;
    }
    if (value < min || value > max) {
      fail(field, "must be between " + min + " and " + max + " (" + why + "; got " + value + ")");
      return false;
    }
    return true;
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }

  private void fail(String field, String rule) {
    problems.add(new ConfigProblem(field, rule));
  }
}
