package dev.protomolt.cdk;

import dev.protomolt.cdk.config.ConfigProblem;
import dev.protomolt.cdk.config.DeployArtifacts;
import dev.protomolt.cdk.config.EnvironmentConfig;
import dev.protomolt.cdk.config.EnvironmentConfigLoader;
import dev.protomolt.cdk.config.InvalidConfigException;
import dev.protomolt.cdk.config.MigrationSet;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awscdk.App;

/**
 * The CDK app: {@code cdk synth -c env=dev} builds the {@code protomolt-dev} stack from
 * {@code config/dev.json}. Run from {@code infra/cdk} (cdk.json does this); relative paths in the
 * configuration are resolved from there.
 *
 * <p>Context keys: {@code env} (required; several names separated by commas build one stack each in
 * one run, as {@code bin/synth-all} does for CI), {@code lambdaCode} and {@code gatewayImage}
 * (optional overrides of the configured artifacts).
 */
public final class ProtoMoltApp {

  /** The Flyway scripts, relative to {@code infra/cdk}. */
  static final String MIGRATIONS_DIR = "../../db/migrations";

  private ProtoMoltApp() {}

  public static void main(String[] args) {
    App app = new App();
    try {
      buildAll(app, Path.of("").toAbsolutePath());
    } catch (InvalidConfigException e) {
      // A clear list of what to fix, not a stack trace through jsii.
      System.err.println(e.getMessage());
      System.exit(2);
    }
    app.synth();
  }

  /** Builds the stack of the environment named by context {@code env} into {@code app}. */
  public static EnvironmentStack build(App app, Path baseDir) {
    return build(app, baseDir, context(app, "env"));
  }

  /**
   * Builds one stack per environment named in context {@code env} ({@code dev,prod}); one app run
   * synthesizes them all, so CI pays the JVM and jsii start once rather than once per environment.
   */
  public static List<EnvironmentStack> buildAll(App app, Path baseDir) {
    String names = context(app, "env");
    if (names == null || !names.contains(",")) {
      return List.of(build(app, baseDir, names));
    }
    List<String> envs = List.of(names.split(",", -1));
    if (envs.stream().anyMatch(String::isBlank)) {
      // Refused before any stack is built: a typo should not cost a synthesis first.
      throw new InvalidConfigException(
          "context",
          List.of(
              new ConfigProblem(
                  "env",
                  "must name environments separated by single commas, got \"" + names + "\"")));
    }
    List<EnvironmentStack> stacks = new ArrayList<>();
    for (String env : envs) {
      stacks.add(build(app, baseDir, env.strip()));
    }
    return stacks;
  }

  private static EnvironmentStack build(App app, Path baseDir, String env) {
    EnvironmentConfig config = EnvironmentConfigLoader.load(baseDir.resolve("config"), env);
    DeployArtifacts artifacts =
        DeployArtifacts.resolve(
            config.artifacts(),
            baseDir,
            context(app, "lambdaCode"),
            context(app, "gatewayImage"),
            context(app, "consoleSite"));
    MigrationSet migrations = MigrationSet.read(baseDir.resolve(MIGRATIONS_DIR));
    return new EnvironmentStack(app, config, artifacts, migrations);
  }

  private static String context(App app, String key) {
    Object value = app.getNode().tryGetContext(key);
    return value == null ? null : value.toString();
  }
}
