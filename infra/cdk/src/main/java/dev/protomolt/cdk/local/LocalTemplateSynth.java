package dev.protomolt.cdk.local;

import dev.protomolt.cdk.EnvironmentStack;
import dev.protomolt.cdk.ProtoMoltApp;
import dev.protomolt.cdk.config.InvalidConfigException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;

/**
 * Synthesizes the {@code local} environment offline into the module's classes, where the cli finds
 * it on its classpath as {@value #RESOURCE}. The build runs this at {@code process-classes}; a
 * stamp holding the inputs' fingerprint makes a second run with unchanged inputs a no-op.
 *
 * <p>Arguments: the {@code infra/cdk} directory and the classes directory to write into.
 */
public final class LocalTemplateSynth {

  /** Where the template lands, relative to the classes directory (and so on the classpath). */
  public static final String RESOURCE = "dev/protomolt/cdk/local/protomolt-local.template.json";

  static final String STACK = "protomolt-local";

  private LocalTemplateSynth() {}

  public static void main(String[] args) {
    if (args.length != 2) {
      throw new IllegalArgumentException(
          "usage: LocalTemplateSynth <infra/cdk directory> <classes directory>");
    }
    Path base = Path.of(args[0]).toAbsolutePath().normalize();
    Path classes = Path.of(args[1]).toAbsolutePath().normalize();
    try {
      boolean wrote = synthesizeIfChanged(base, classes);
      System.out.println(
          wrote
              ? "local template synthesized -> " + classes.resolve(RESOURCE)
              : "local template up to date (inputs unchanged)");
    } catch (InvalidConfigException e) {
      // The same list of what to fix the CDK app prints, not a stack trace through jsii.
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  /** Synthesizes when the inputs changed since the last run; returns whether it wrote anything. */
  public static boolean synthesizeIfChanged(Path base, Path classes) {
    Path template = classes.resolve(RESOURCE);
    // The stamp lives outside the classes so that writing it never changes the fingerprint.
    Path stamp = base.resolve("target/protomolt-local.inputs.sha256");
    String fingerprint = inputs(base, classes).fingerprint();
    try {
      if (Files.isRegularFile(template)
          && Files.isRegularFile(stamp)
          && Files.readString(stamp).strip().equals(fingerprint)) {
        return false;
      }
      Path outdir = base.resolve("target/cdk-local-out");
      App app =
          new App(
              AppProps.builder().context(Map.of("env", "local")).outdir(outdir.toString()).build());
      EnvironmentStack stack = ProtoMoltApp.build(app, base);
      app.synth();
      Path synthesized = outdir.resolve(stack.getArtifactId() + ".template.json");
      if (!Files.isRegularFile(synthesized)) {
        throw new IllegalStateException("CDK wrote no template at " + synthesized);
      }
      Files.createDirectories(template.getParent());
      Files.copy(synthesized, template, StandardCopyOption.REPLACE_EXISTING);
      Files.writeString(stamp, fingerprint + "\n", StandardCharsets.UTF_8);
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the local template: " + e, e);
    }
  }

  static LocalTemplateInputs inputs(Path base, Path classes) {
    return new LocalTemplateInputs(
        List.of(
            classes.resolve("dev/protomolt/cdk"),
            base.resolve("config/local.json"),
            base.resolve("src/test/resources/placeholder-artifacts"),
            base.resolve("../../db/migrations").normalize()),
        String.valueOf(App.class.getProtectionDomain().getCodeSource().getLocation()));
  }
}
