package dev.protomolt.cdk.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.cdk.TestEnvironments;
import dev.protomolt.cdk.config.DeployArtifacts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When the build re-synthesizes the local template, and what that template is built from. */
class LocalTemplateInputsTest {

  @TempDir Path dir;

  @Test
  void theFingerprintChangesExactlyWhenAnInputChanges() throws IOException {
    Path classes = Files.createDirectories(dir.resolve("classes"));
    Files.writeString(classes.resolve("A.class"), "one");
    Path config = Files.writeString(dir.resolve("local.json"), "{}");
    LocalTemplateInputs inputs = new LocalTemplateInputs(List.of(classes, config), "cdk-2");
    String first = inputs.fingerprint();

    assertThat(inputs.fingerprint()).isEqualTo(first);
    // The synthesized template itself sits among the classes and must not count as an input.
    Files.writeString(classes.resolve("protomolt-local.template.json"), "{\"x\":1}");
    assertThat(inputs.fingerprint()).isEqualTo(first);

    Files.writeString(classes.resolve("A.class"), "two");
    String changedClass = inputs.fingerprint();
    assertThat(changedClass).isNotEqualTo(first);

    Files.writeString(config, "{\"name\":\"local\"}");
    assertThat(inputs.fingerprint()).isNotEqualTo(changedClass);

    assertThat(new LocalTemplateInputs(List.of(classes, config), "cdk-3").fingerprint())
        .isNotEqualTo(inputs.fingerprint());
  }

  @Test
  void aMissingInputCountsAsStateSoCreatingItResynthesizes() throws IOException {
    Path later = dir.resolve("migrations");
    LocalTemplateInputs inputs = new LocalTemplateInputs(List.of(later), "cdk");
    String before = inputs.fingerprint();
    Files.createDirectories(later);
    Files.writeString(later.resolve("V1__a.sql"), "select 1;");
    assertThat(inputs.fingerprint()).isNotEqualTo(before);
  }

  @Test
  void theLocalEnvironmentPackagesThePlaceholdersBecauseFunctionsRunFromTheClasspath() {
    DeployArtifacts artifacts =
        DeployArtifacts.resolve(
            TestEnvironments.config("local").artifacts(),
            TestEnvironments.BASE_DIR,
            null,
            null,
            null);
    assertThat(artifacts.lambdaCode())
        .isEqualTo(TestEnvironments.BASE_DIR.resolve(TestEnvironments.PLACEHOLDER_LAMBDA));
    assertThat(artifacts.gatewayImage())
        .isEqualTo(
            new DeployArtifacts.ImageDirectory(
                TestEnvironments.BASE_DIR.resolve(TestEnvironments.PLACEHOLDER_GATEWAY)));
    assertThat(artifacts.consoleSite())
        .isEqualTo(TestEnvironments.BASE_DIR.resolve(TestEnvironments.PLACEHOLDER_CONSOLE));
  }
}
