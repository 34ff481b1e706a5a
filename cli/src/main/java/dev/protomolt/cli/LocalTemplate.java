package dev.protomolt.cli;

import dev.protomolt.localstack.cloud.LocalCloud;
import dev.protomolt.localstack.template.CloudFormationTemplate;
import dev.protomolt.localstack.template.TemplateDeployer;
import dev.protomolt.localstack.template.TemplatePlan;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The {@code local} environment's CloudFormation template, synthesized by the build from the same
 * CDK code as dev and prod (decision 1500), and how the local cloud plans it with the zip's
 * handlers and the gateway's task.
 */
public final class LocalTemplate {

  /** Where infra/cdk's build puts the template on the classpath. */
  static final String RESOURCE = "/dev/protomolt/cdk/local/protomolt-local.template.json";

  /** The stack's name, {@code protomolt-<env>}, as {@code cdk deploy} names it. */
  public static final String STACK_NAME = "protomolt-local";

  private LocalTemplate() {}

  /** The synthesized template's JSON. */
  public static String json() {
    try (InputStream in = LocalTemplate.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(
            "no local template on the classpath at "
                + RESOURCE
                + ": build infra/cdk (./mvnw -B -q -pl cli -am process-classes synthesizes it)");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the local template " + RESOURCE, e);
    }
  }

  /** Parses {@link #json()}. */
  public static CloudFormationTemplate template() {
    return CloudFormationTemplate.parse(json());
  }

  /**
   * Checks and resolves {@code template} against {@code cloud} with the zip's handlers and the
   * gateway's task; nothing starts. Fails naming every resource that cannot be deployed.
   */
  public static TemplatePlan plan(CloudFormationTemplate template, LocalCloud cloud) {
    return TemplateDeployer.plan(
        template, STACK_NAME, cloud, new ZipFunctionRuntime(), new GatewayTaskRuntime());
  }
}
