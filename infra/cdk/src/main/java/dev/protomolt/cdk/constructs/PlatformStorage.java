package dev.protomolt.cdk.constructs;

import dev.protomolt.names.StoragePrefix;
import java.util.List;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.iam.IGrantable;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.s3.BlockPublicAccess;
import software.amazon.awscdk.services.s3.Bucket;
import software.amazon.awscdk.services.s3.BucketEncryption;
import software.amazon.awscdk.services.s3.LifecycleRule;
import software.amazon.awscdk.services.s3.ObjectOwnership;
import software.constructs.Construct;

/**
 * The platform's own buckets. Per-account drive buckets are created at run time by account
 * provisioning (the account-events function), inside the name space {@link #driveBucketPrefix()}
 * that the stack grants; this construct creates only what exists once per environment:
 * <ul>
 *   <li>{@code intake}: one bucket for every account of the environment (the AWS account id in its
 *       name only keeps the name globally unique). Uploads land at
 *       {@code <account>/<datasource>/<path>}; the store's intake copies live under
 *       {@link #INTAKE_COPIES_PREFIX}{@code <account>/} (each PROTOMOLT-provided intake drive), outside
 *       every upload prefix, so no notification rule covers them (decision 0660);
 *   <li>{@code platform}: the platform-provided pipeline drives and, under {@link #CACHE_PREFIX},
 *       CACHE-edge staging whose objects the lifecycle rule expires as a backstop.
 * </ul>
 */
public final class PlatformStorage extends Construct {

  /**
   * Key prefix of every CACHE copy the store writes (the store's {@code ObjectKeys.forCopy} puts it
   * before the drive prefix), which the platform bucket's lifecycle rule expires as a backstop.
   */
  public static final String CACHE_PREFIX = StoragePrefix.CACHE_STAGING;

  /**
   * Where the store writes intake copies inside the intake bucket, as the local platform does
   * (decision 0951): account ids never start with {@code _}, so no account's upload prefix covers it.
   */
  public static final String INTAKE_COPIES_PREFIX = "_intake-copies/";

  /** Validated settings; {@code namePrefix} is e.g. {@code protomolt-dev-123456789012}. */
  public record Props(String namePrefix, int cacheStagingExpirationDays, boolean retainOnDelete) {
    public Props {
      if (namePrefix == null || !namePrefix.matches("[a-z0-9][a-z0-9-]{2,40}")) {
        throw new IllegalArgumentException(
            "storage name prefix: must be 3-41 lowercase letters,"
                + " digits or dashes so every bucket name stays within S3's 63 characters (got "
                + namePrefix
                + ")");
      }
      if (cacheStagingExpirationDays < 1) {
        throw new IllegalArgumentException(
            "storage.cacheStagingExpirationDays: must be at least 1"
                + " (got "
                + cacheStagingExpirationDays
                + ")");
      }
    }
  }

  private final Props props;
  private final Bucket intake;
  private final Bucket platform;

  public PlatformStorage(Construct scope, String id, Props props) {
    super(scope, id);
    this.props = props;
    RemovalPolicy removal = props.retainOnDelete() ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    LifecycleRule abortUploads =
        LifecycleRule.builder()
            .id("abort-incomplete-multipart-uploads")
            .abortIncompleteMultipartUploadAfter(Duration.days(7))
            .build();
    this.intake = bucket("Intake", props.namePrefix() + "-intake", removal, List.of(abortUploads));
    this.platform =
        bucket(
            "Platform",
            props.namePrefix() + "-platform",
            removal,
            List.of(
                abortUploads,
                LifecycleRule.builder()
                    .id("expire-cache-staging")
                    .prefix(CACHE_PREFIX)
                    .expiration(Duration.days(props.cacheStagingExpirationDays()))
                    .build()));
  }

  private Bucket bucket(String id, String name, RemovalPolicy removal, List<LifecycleRule> rules) {
    return Bucket.Builder.create(this, id)
        .bucketName(name)
        .encryption(BucketEncryption.S3_MANAGED)
        .blockPublicAccess(BlockPublicAccess.BLOCK_ALL)
        .enforceSsl(true)
        .objectOwnership(ObjectOwnership.BUCKET_OWNER_ENFORCED)
        .lifecycleRules(rules)
        .removalPolicy(removal)
        .build();
  }

  public Bucket intake() {
    return intake;
  }

  public Bucket platform() {
    return platform;
  }

  /** Names of drive buckets account provisioning may create: {@code <prefix>-drive-<account>}. */
  public String driveBucketPrefix() {
    return props.namePrefix() + "-drive-";
  }

  /** ARN pattern of every drive bucket's objects (a name space, never all of S3). */
  private String driveObjects() {
    return "arn:aws:s3:::" + driveBucketPrefix() + "*/*";
  }

  private String driveBuckets() {
    return "arn:aws:s3:::" + driveBucketPrefix() + "*";
  }

  /**
   * Read, write and delete document parts in the platform bucket, every drive bucket and the
   * intake bucket. Intake drives live in the intake bucket: copies are written only under
   * {@link #INTAKE_COPIES_PREFIX}, while deletes reach uploads too, because source settlement
   * deletes the raw intake objects a settled document's storage references name (decision 0901).
   */
  public void grantDocumentReadWrite(IGrantable grantee) {
    platform.grantReadWrite(grantee);
    platform.grantDelete(grantee);
    intake.grantRead(grantee);
    grantee
        .getGrantPrincipal()
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(List.of("s3:PutObject", "s3:AbortMultipartUpload"))
                .resources(List.of(intake.arnForObjects(INTAKE_COPIES_PREFIX + "*")))
                .build());
    grantee
        .getGrantPrincipal()
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(List.of("s3:DeleteObject"))
                .resources(List.of(intake.arnForObjects("*")))
                .build());
    grantee
        .getGrantPrincipal()
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(
                    List.of(
                        "s3:GetObject",
                        "s3:PutObject",
                        "s3:DeleteObject",
                        "s3:AbortMultipartUpload"))
                .resources(List.of(driveObjects()))
                .build());
    grantee
        .getGrantPrincipal()
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(List.of("s3:ListBucket", "s3:GetBucketLocation"))
                .resources(List.of(driveBuckets()))
                .build());
  }

  /**
   * Write and read sealed document logs' originals, {@code logs/<collection>/<path>} in the
   * platform bucket (decision 1674). Stated on its own, scoped to the prefix, so the gateway keeps
   * it if its document grant is ever narrowed.
   */
  public void grantLogOriginals(IGrantable grantee) {
    grantee
        .getGrantPrincipal()
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(List.of("s3:PutObject", "s3:GetObject"))
                .resources(List.of(platform.arnForObjects(StoragePrefix.LOG_ORIGINALS + "*")))
                .build());
  }

  /** Read document parts (platform, drives, intake copies and uploads) without changing them. */
  public void grantDocumentRead(IGrantable grantee) {
    platform.grantRead(grantee);
    intake.grantRead(grantee);
    grantee
        .getGrantPrincipal()
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(List.of("s3:GetObject"))
                .resources(List.of(driveObjects()))
                .build());
    grantee
        .getGrantPrincipal()
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(List.of("s3:ListBucket", "s3:GetBucketLocation"))
                .resources(List.of(driveBuckets()))
                .build());
  }

  /**
   * Read and replace the intake bucket's notification configuration, and nothing else's: account
   * provisioning adds one rule per account, prefix {@code <account>/}, to the intake function
   * (decision 0660), as the local platform does at provisioning (decision 0951).
   */
  public void grantIntakeNotificationRules(IGrantable grantee) {
    grantee
        .getGrantPrincipal()
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(List.of("s3:GetBucketNotification", "s3:PutBucketNotification"))
                .resources(List.of(intake.getBucketArn()))
                .build());
  }

  /** Create and configure drive buckets inside the drive name space (account provisioning). */
  public void grantDriveProvisioning(IGrantable grantee) {
    grantee
        .getGrantPrincipal()
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(
                    List.of(
                        "s3:CreateBucket",
                        "s3:PutBucketPublicAccessBlock",
                        "s3:PutEncryptionConfiguration",
                        "s3:PutBucketPolicy",
                        "s3:PutBucketOwnershipControls",
                        "s3:PutLifecycleConfiguration",
                        "s3:PutBucketTagging",
                        "s3:GetBucketLocation"))
                .resources(List.of(driveBuckets()))
                .build());
  }
}
