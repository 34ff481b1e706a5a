package dev.protomolt.cdk.constructs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.cdk.PolicyDocuments;
import dev.protomolt.cdk.TestEnvironments;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;

class PlatformStorageTest {

  private static Template template;

  @BeforeAll
  static void synth() {
    Stack stack = TestEnvironments.emptyStack();
    PlatformStorage storage =
        new PlatformStorage(
            stack, "Storage", new PlatformStorage.Props("protomolt-test-123456789012", 2, false));
    Role reader =
        Role.Builder.create(stack, "Reader")
            .assumedBy(new ServicePrincipal("lambda.amazonaws.com"))
            .build();
    storage.grantDocumentRead(reader);
    Role provisioner =
        Role.Builder.create(stack, "Provisioner")
            .assumedBy(new ServicePrincipal("lambda.amazonaws.com"))
            .build();
    storage.grantDriveProvisioning(provisioner);
    storage.grantIntakeNotificationRules(provisioner);
    Role writer =
        Role.Builder.create(stack, "Writer")
            .assumedBy(new ServicePrincipal("lambda.amazonaws.com"))
            .build();
    storage.grantDocumentReadWrite(writer);
    template = Template.fromStack(stack);
  }

  @Test
  void bothBucketsAreEncryptedPrivateAndNamedPerEnvironment() {
    template.resourceCountIs("AWS::S3::Bucket", 2);
    for (String name :
        List.of("protomolt-test-123456789012-intake", "protomolt-test-123456789012-platform")) {
      template.hasResourceProperties(
          "AWS::S3::Bucket",
          Match.objectLike(
              Map.of(
                  "BucketName", name,
                  "BucketEncryption",
                      Map.of(
                          "ServerSideEncryptionConfiguration",
                          List.of(
                              Map.of(
                                  "ServerSideEncryptionByDefault",
                                  Map.of("SSEAlgorithm", "AES256")))),
                  "PublicAccessBlockConfiguration",
                      Map.of(
                          "BlockPublicAcls",
                          true,
                          "BlockPublicPolicy",
                          true,
                          "IgnorePublicAcls",
                          true,
                          "RestrictPublicBuckets",
                          true))));
    }
  }

  @Test
  void everyBucketRefusesPlainHttp() {
    template.resourceCountIs("AWS::S3::BucketPolicy", 2);
    template.allResourcesProperties(
        "AWS::S3::BucketPolicy",
        Match.objectLike(
            Map.of(
                "PolicyDocument",
                Match.objectLike(
                    Map.of(
                        "Statement",
                        Match.arrayWith(
                            List.of(
                                Match.objectLike(
                                    Map.of(
                                        "Effect", "Deny",
                                        "Action", "s3:*",
                                        "Condition",
                                            Map.of(
                                                "Bool",
                                                Map.of("aws:SecureTransport", "false")))))))))));
  }

  @Test
  void cacheStagingExpiresUnderItsPrefixOnlyInThePlatformBucket() {
    template.hasResourceProperties(
        "AWS::S3::Bucket",
        Match.objectLike(
            Map.of(
                "BucketName",
                "protomolt-test-123456789012-platform",
                "LifecycleConfiguration",
                Map.of(
                    "Rules",
                    Match.arrayWith(
                        List.of(
                            Match.objectLike(
                                Map.of(
                                    "Id",
                                    "expire-cache-staging",
                                    "Prefix",
                                    PlatformStorage.CACHE_PREFIX,
                                    "ExpirationInDays",
                                    2,
                                    "Status",
                                    "Enabled"))))))));
    template.hasResourceProperties(
        "AWS::S3::Bucket",
        Match.objectLike(
            Map.of(
                "BucketName",
                "protomolt-test-123456789012-intake",
                "LifecycleConfiguration",
                Map.of(
                    "Rules",
                    Match.not(
                        Match.arrayWith(
                            List.of(Match.objectLike(Map.of("Id", "expire-cache-staging")))))))));
  }

  @Test
  void driveGrantsStayInsideTheDriveNameSpace() {
    List<String> driveResources =
        PolicyDocuments.identityStatements(template).stream()
            .flatMap(s -> s.resources().stream())
            .filter(r -> r.contains("-drive-"))
            .toList();
    assertThat(driveResources)
        .isNotEmpty()
        .allMatch(
            r ->
                r.equals("arn:aws:s3:::protomolt-test-123456789012-drive-*")
                    || r.equals("arn:aws:s3:::protomolt-test-123456789012-drive-*/*"));
    assertThat(
            PolicyDocuments.identityStatements(template).stream()
                .filter(s -> s.actions().contains("s3:CreateBucket"))
                .flatMap(s -> s.resources().stream()))
        .containsExactly("arn:aws:s3:::protomolt-test-123456789012-drive-*");
  }

  @Test
  void intakeCopiesAreWrittenOnlyOutsideEveryUploadPrefix() {
    List<PolicyDocuments.Statement> writer = PolicyDocuments.forRole(template, roleId("Writer"));
    List<String> intakePuts =
        writer.stream()
            .filter(s -> s.actions().contains("s3:PutObject"))
            .flatMap(s -> s.resources().stream())
            .filter(r -> r.contains("StorageIntake"))
            .toList();
    assertThat(intakePuts)
        .singleElement()
        .asString()
        .endsWith("/" + PlatformStorage.INTAKE_COPIES_PREFIX + "*");
    // Settlement deletes the raw uploads its storage references name (decision 0901).
    assertThat(
            writer.stream()
                .filter(s -> s.actions().contains("s3:DeleteObject"))
                .flatMap(s -> s.resources().stream()))
        .anyMatch(r -> r.matches("\\$\\{StorageIntake.*\\.Arn\\}/\\*"));
    // Readers read intake copies and uploads: level-2 hydration fetches the upload itself.
    assertThat(
            PolicyDocuments.forRole(template, roleId("Reader")).stream()
                .filter(s -> s.actions().contains("s3:GetObject*"))
                .flatMap(s -> s.resources().stream()))
        .anyMatch(r -> r.startsWith("${StorageIntake"));
  }

  @Test
  void onlyTheIntakeBucketsNotificationRulesMayBeReplaced() {
    List<PolicyDocuments.Statement> rules =
        PolicyDocuments.identityStatements(template).stream()
            .filter(s -> s.actions().contains("s3:PutBucketNotification"))
            .toList();
    assertThat(rules)
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.roles()).containsExactly("${" + roleId("Provisioner") + "}");
              assertThat(s.actions())
                  .containsExactlyInAnyOrder(
                      "s3:GetBucketNotification", "s3:PutBucketNotification");
              assertThat(s.resources())
                  .singleElement()
                  .asString()
                  .matches("\\$\\{StorageIntake[0-9A-F]+\\.Arn\\}");
            });
  }

  private static String roleId(String prefix) {
    return template.findResources("AWS::IAM::Role").keySet().stream()
        .filter(id -> id.startsWith(prefix))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void readersCannotWrite() {
    String reader =
        template.findResources("AWS::IAM::Role").keySet().stream()
            .filter(id -> id.startsWith("Reader"))
            .findFirst()
            .orElseThrow();
    assertThat(
            PolicyDocuments.forRole(template, reader).stream().flatMap(s -> s.actions().stream()))
        .isNotEmpty()
        .noneMatch(a -> a.startsWith("s3:Put") || a.startsWith("s3:Delete"));
  }

  @Test
  void propsRejectNamesThatWouldOverflowS3sLimit() {
    assertThatThrownBy(() -> new PlatformStorage.Props("x".repeat(50), 2, false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("storage name prefix")
        .hasMessageContaining("63 characters");
    assertThatThrownBy(() -> new PlatformStorage.Props("protomolt-test", 0, false))
        .hasMessageContaining("storage.cacheStagingExpirationDays");
  }
}
