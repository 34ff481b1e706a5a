package dev.protomolt.cdk.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The deployables the stack packages, resolved and checked at synth time: the Lambda code (the
 * one Quarkus zip, or a directory CDK zips), the gateway container image (a directory with a
 * Dockerfile, built by {@code cdk deploy}, or an image already in ECR) and the console's built site
 * (a directory with an {@code index.html}, uploaded to the console's bucket by {@code cdk deploy}).
 *
 * <p>Configuration names the real build outputs; a {@code -c lambdaCode=...}, {@code -c
 * gatewayImage=...} or {@code -c consoleSite=...} override replaces them, which is how CI synthesizes before those
 * builds exist (with placeholders) and how an operator deploys a specific build.
 */
public record DeployArtifacts(Path lambdaCode, GatewayImage gatewayImage, Path consoleSite) {

  private static final Pattern ECR_URI =
      Pattern.compile(
          "(?<account>\\d{12})\\.dkr\\.ecr\\.(?<region>[a-z0-9-]+)\\.amazonaws\\.com(\\.cn)?/"
              + "(?<repository>[a-z0-9][a-z0-9._/-]*)(:(?<tag>[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})"
              + "|@(?<digest>sha256:[0-9a-f]{64}))");

  /** Where the gateway's container image comes from. */
  public sealed interface GatewayImage {}

  /** A build context directory; {@code cdk deploy} builds it with Docker and pushes it. */
  public record ImageDirectory(Path directory) implements GatewayImage {}

  /** An image already pushed to ECR, pinned by tag or digest. */
  public record EcrImage(String account, String region, String repository, String tagOrDigest)
      implements GatewayImage {

    public boolean byDigest() {
      return tagOrDigest.startsWith("sha256:");
    }
  }

  /**
   * Resolves the configured artifacts (or the overrides, when given) against {@code baseDir} and
   * checks that they exist and have the right shape, naming every problem at once.
   */
  public static DeployArtifacts resolve(
      EnvironmentConfig.Artifacts configured,
      Path baseDir,
      String lambdaCodeOverride,
      String gatewayImageOverride,
      String consoleSiteOverride) {
    List<ConfigProblem> problems = new ArrayList<>();
    String lambdaSetting =
        lambdaCodeOverride != null ? lambdaCodeOverride : configured.lambdaCode();
    String lambdaField = lambdaCodeOverride != null ? "context lambdaCode" : "artifacts.lambdaCode";
    String imageSetting =
        gatewayImageOverride != null ? gatewayImageOverride : configured.gatewayImage();
    String imageField =
        gatewayImageOverride != null ? "context gatewayImage" : "artifacts.gatewayImage";

    Path lambdaCode = baseDir.resolve(lambdaSetting).normalize();
    if (Files.isRegularFile(lambdaCode)) {
      if (!lambdaCode.getFileName().toString().endsWith(".zip")) {
        problems.add(
            new ConfigProblem(
                lambdaField, "must be a .zip file or a directory (got " + lambdaCode + ")"));
      }
    } else if (!Files.isDirectory(lambdaCode)) {
      problems.add(
          new ConfigProblem(
              lambdaField,
              "no file or directory at "
                  + lambdaCode
                  + ": build it first (./mvnw -B package at the repository root writes"
                  + " functions/lambda/target/function.zip) or pass -c lambdaCode=<path>"));
    }

    GatewayImage image = null;
    Matcher ecr = ECR_URI.matcher(imageSetting);
    if (ecr.matches()) {
      String pin = ecr.group("tag") != null ? ecr.group("tag") : ecr.group("digest");
      image = new EcrImage(ecr.group("account"), ecr.group("region"), ecr.group("repository"), pin);
    } else if (imageSetting.contains(".dkr.ecr.")) {
      problems.add(
          new ConfigProblem(
              imageField,
              "looks like an ECR URI but is not"
                  + " <account>.dkr.ecr.<region>.amazonaws.com/<repository>:<tag> or"
                  + " @sha256:<digest> (got '"
                  + imageSetting
                  + "')"));
    } else {
      Path directory = baseDir.resolve(imageSetting).normalize();
      if (!Files.isDirectory(directory)) {
        problems.add(
            new ConfigProblem(
                imageField,
                "is neither an ECR image URI nor a directory: no"
                    + " directory at "
                    + directory
                    + " (./mvnw -B package at the repository root writes the gateway's build"
                    + " context to gateway/target/image, or pass -c gatewayImage=...)"));
      } else if (!Files.isRegularFile(directory.resolve("Dockerfile"))) {
        problems.add(
            new ConfigProblem(
                imageField,
                "directory " + directory + " has no Dockerfile to build the gateway image from"));
      } else {
        image = new ImageDirectory(directory);
      }
    }
    String siteSetting =
        consoleSiteOverride != null ? consoleSiteOverride : configured.consoleSite();
    String siteField =
        consoleSiteOverride != null ? "context consoleSite" : "artifacts.consoleSite";
    Path site = baseDir.resolve(siteSetting).normalize();
    if (!Files.isRegularFile(site.resolve("index.html"))) {
      problems.add(
          new ConfigProblem(
              siteField,
              "no index.html in "
                  + site
                  + ": build the console first (./mvnw -B package at the repository root writes"
                  + " console/target/classes/protomolt-console) or pass -c consoleSite=<dir>"));
    }
    if (!problems.isEmpty()) {
      throw new InvalidConfigException("deploy artifacts", problems);
    }
    return new DeployArtifacts(lambdaCode, image, site);
  }
}
