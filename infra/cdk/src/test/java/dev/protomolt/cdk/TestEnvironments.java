package dev.protomolt.cdk;

import dev.protomolt.cdk.config.DeployArtifacts;
import dev.protomolt.cdk.config.EnvironmentConfig;
import dev.protomolt.cdk.config.EnvironmentConfigLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.Environment;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.assertions.Template;

/**
 * Shared fixtures. Synthesis goes through the jsii runtime and is the slow part of these tests,
 * so the full dev environment is synthesized once per test JVM and shared by every class that
 * inspects it; construct tests synthesize their own small stacks once per class.
 */
public final class TestEnvironments {

  /** Working directory of the tests is {@code infra/cdk}, as it is for the CDK app. */
  public static final Path BASE_DIR = Path.of("").toAbsolutePath();

  public static final String PLACEHOLDER_LAMBDA = "src/test/resources/placeholder-artifacts/lambda";
  public static final String PLACEHOLDER_GATEWAY =
      "src/test/resources/placeholder-artifacts/gateway";
  public static final String PLACEHOLDER_CONSOLE =
      "src/test/resources/placeholder-artifacts/console";
  public static final String ACCOUNT = "123456789012";
  public static final String REGION = "eu-west-1";

  private static Template dev;
  private static Path devAssembly;

  private TestEnvironments() {}

  /** The committed configuration of {@code env}. */
  public static EnvironmentConfig config(String env) {
    return EnvironmentConfigLoader.load(BASE_DIR.resolve("config"), env);
  }

  /** The placeholder artifacts: the tests synthesize without building the real zip and image. */
  public static DeployArtifacts placeholderArtifacts() {
    return DeployArtifacts.resolve(
        new EnvironmentConfig.Artifacts("missing.zip", "missing", "missing"),
        BASE_DIR,
        PLACEHOLDER_LAMBDA,
        PLACEHOLDER_GATEWAY,
        PLACEHOLDER_CONSOLE);
  }

  /** Builds environment {@code env} exactly as {@code cdk synth -c env=<env>} does. */
  public static EnvironmentStack build(String env) {
    App app =
        new App(
            AppProps.builder()
                .context(
                    Map.of(
                        "env",
                        env,
                        "lambdaCode",
                        PLACEHOLDER_LAMBDA,
                        "gatewayImage",
                        PLACEHOLDER_GATEWAY,
                        "consoleSite",
                        PLACEHOLDER_CONSOLE))
                // Under target/ so the assembly (and CDK's validation report) can be inspected
                // after a run; one per test JVM, since surefire's two forks both synthesize dev
                // and CDK's validation fails when the other fork rewrites the assembly under it.
                .outdir(
                    BASE_DIR
                        .resolve("target/cdk-test-out/" + env + "-" + ProcessHandle.current().pid())
                        .toString())
                .build());
    return ProtoMoltApp.build(app, BASE_DIR);
  }

  /** The dev environment's template, synthesized once. */
  public static synchronized Template dev() {
    if (dev == null) {
      EnvironmentStack stack = build("dev");
      dev = Template.fromStack(stack);
      devAssembly = Path.of(((App) stack.getNode().getRoot()).getOutdir());
    }
    return dev;
  }

  /** The cloud assembly directory the dev template was synthesized into. */
  public static synchronized Path devAssembly() {
    dev();
    return devAssembly;
  }

  /** An empty stack in a fresh app, for testing one construct. */
  public static ZonePinnedStack emptyStack() {
    return new ZonePinnedStack(
        new App(),
        "test",
        StackProps.builder()
            .env(Environment.builder().account(ACCOUNT).region(REGION).build())
            .build(),
        List.of(REGION + "a", REGION + "b"));
  }
}
