package dev.protomolt.localstack.iam.enforce;

import dev.protomolt.localstack.iam.AccessRequest;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CreateBucketRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.DeleteBucketRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectTaggingRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectsRequest;
import software.amazon.awssdk.services.s3.model.GetBucketLifecycleConfigurationRequest;
import software.amazon.awssdk.services.s3.model.GetBucketLocationRequest;
import software.amazon.awssdk.services.s3.model.GetBucketNotificationConfigurationRequest;
import software.amazon.awssdk.services.s3.model.GetBucketVersioningRequest;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectTaggingRequest;
import software.amazon.awssdk.services.s3.model.HeadBucketRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.ListBucketsRequest;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsRequest;
import software.amazon.awssdk.services.s3.model.ListObjectVersionsRequest;
import software.amazon.awssdk.services.s3.model.ListObjectsRequest;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListPartsRequest;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.PutBucketLifecycleConfigurationRequest;
import software.amazon.awssdk.services.s3.model.PutBucketNotificationConfigurationRequest;
import software.amazon.awssdk.services.s3.model.PutBucketVersioningRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectTaggingRequest;
import software.amazon.awssdk.services.s3.model.S3Request;
import software.amazon.awssdk.services.s3.model.UploadPartCopyRequest;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

/**
 * S3 operations as the IAM actions and resources S3 authorizes them against (the service
 * authorization reference for Amazon S3): object operations on {@code arn:aws:s3:::bucket/key},
 * bucket operations on {@code arn:aws:s3:::bucket}, a copy as a read of its source and a write of
 * its destination, and a multi-object delete as one {@code s3:DeleteObject} per key.
 */
final class S3Actions {

  private S3Actions() {}

  static List<AccessRequest> of(S3Request request) {
    return switch (request) {
      case GetObjectRequest r -> List.of(read(r.bucket(), r.key(), r.versionId()));
      case HeadObjectRequest r -> List.of(read(r.bucket(), r.key(), r.versionId()));
      case PutObjectRequest r -> {
        List<AccessRequest> checks = new ArrayList<>();
        checks.add(object("s3:PutObject", r.bucket(), r.key()));
        if (r.tagging() != null) {
          checks.add(object("s3:PutObjectTagging", r.bucket(), r.key()));
        }
        yield checks;
      }
      case CopyObjectRequest r -> copy(r);
      case UploadPartCopyRequest r ->
          List.of(
              read(r.sourceBucket(), r.sourceKey(), r.sourceVersionId()),
              object("s3:PutObject", r.destinationBucket(), r.destinationKey()));
      case DeleteObjectRequest r ->
          List.of(
              object(
                  r.versionId() == null ? "s3:DeleteObject" : "s3:DeleteObjectVersion",
                  r.bucket(),
                  r.key()));
      case DeleteObjectsRequest r -> {
        List<AccessRequest> checks = new ArrayList<>();
        for (ObjectIdentifier id : r.delete().objects()) {
          checks.add(
              object(
                  id.versionId() == null ? "s3:DeleteObject" : "s3:DeleteObjectVersion",
                  r.bucket(),
                  id.key()));
        }
        yield checks;
      }
      case CreateMultipartUploadRequest r -> List.of(object("s3:PutObject", r.bucket(), r.key()));
      case UploadPartRequest r -> List.of(object("s3:PutObject", r.bucket(), r.key()));
      case CompleteMultipartUploadRequest r -> List.of(object("s3:PutObject", r.bucket(), r.key()));
      case AbortMultipartUploadRequest r ->
          List.of(object("s3:AbortMultipartUpload", r.bucket(), r.key()));
      case ListPartsRequest r ->
          List.of(object("s3:ListMultipartUploadParts", r.bucket(), r.key()));
      case GetObjectTaggingRequest r -> List.of(object("s3:GetObjectTagging", r.bucket(), r.key()));
      case PutObjectTaggingRequest r -> List.of(object("s3:PutObjectTagging", r.bucket(), r.key()));
      case DeleteObjectTaggingRequest r ->
          List.of(object("s3:DeleteObjectTagging", r.bucket(), r.key()));
      case ListObjectsV2Request r -> List.of(listBucket(r.bucket(), r.prefix()));
      case ListObjectsRequest r -> List.of(listBucket(r.bucket(), r.prefix()));
      case ListObjectVersionsRequest r -> List.of(bucket("s3:ListBucketVersions", r.bucket()));
      case ListMultipartUploadsRequest r ->
          List.of(bucket("s3:ListBucketMultipartUploads", r.bucket()));
      // HeadBucket has no action of its own: S3 requires s3:ListBucket for it.
      case HeadBucketRequest r -> List.of(bucket("s3:ListBucket", r.bucket()));
      case GetBucketLocationRequest r -> List.of(bucket("s3:GetBucketLocation", r.bucket()));
      case CreateBucketRequest r -> List.of(bucket("s3:CreateBucket", r.bucket()));
      case DeleteBucketRequest r -> List.of(bucket("s3:DeleteBucket", r.bucket()));
      case ListBucketsRequest _ -> List.of(AccessRequest.of("s3:ListAllMyBuckets", "*"));
      case GetBucketNotificationConfigurationRequest r ->
          List.of(bucket("s3:GetBucketNotification", r.bucket()));
      case PutBucketNotificationConfigurationRequest r ->
          List.of(bucket("s3:PutBucketNotification", r.bucket()));
      case GetBucketLifecycleConfigurationRequest r ->
          List.of(bucket("s3:GetLifecycleConfiguration", r.bucket()));
      case PutBucketLifecycleConfigurationRequest r ->
          List.of(bucket("s3:PutLifecycleConfiguration", r.bucket()));
      case GetBucketVersioningRequest r -> List.of(bucket("s3:GetBucketVersioning", r.bucket()));
      case PutBucketVersioningRequest r -> List.of(bucket("s3:PutBucketVersioning", r.bucket()));
      default ->
          throw new OperationNotMappedException(
              "S3", request.getClass().getSimpleName(), S3Actions.class.getName());
    };
  }

  private static List<AccessRequest> copy(CopyObjectRequest r) {
    String sourceBucket = r.sourceBucket();
    String sourceKey = r.sourceKey();
    String sourceVersion = r.sourceVersionId();
    if (sourceBucket == null) {
      // The older single CopySource field ("bucket/key[?versionId=v]", URL-encoded).
      String copySource =
          URLDecoder.decode(
              r.getValueForField("CopySource", String.class).orElse(""), StandardCharsets.UTF_8);
      int query = copySource.indexOf("?versionId=");
      if (query >= 0) {
        sourceVersion = copySource.substring(query + "?versionId=".length());
        copySource = copySource.substring(0, query);
      }
      int slash = copySource.indexOf('/');
      sourceBucket = slash < 0 ? copySource : copySource.substring(0, slash);
      sourceKey = slash < 0 ? "" : copySource.substring(slash + 1);
    }
    return List.of(
        read(sourceBucket, sourceKey, sourceVersion),
        object("s3:PutObject", r.destinationBucket(), r.destinationKey()));
  }

  private static AccessRequest read(String bucket, String key, String versionId) {
    return object(versionId == null ? "s3:GetObject" : "s3:GetObjectVersion", bucket, key);
  }

  private static AccessRequest object(String action, String bucket, String key) {
    return AccessRequest.of(action, "arn:aws:s3:::" + bucket + "/" + key);
  }

  private static AccessRequest bucket(String action, String bucket) {
    return AccessRequest.of(action, "arn:aws:s3:::" + bucket);
  }

  private static AccessRequest listBucket(String bucket, String prefix) {
    Map<String, String> context = prefix == null ? Map.of() : Map.of("s3:prefix", prefix);
    return new AccessRequest("s3:ListBucket", "arn:aws:s3:::" + bucket, context);
  }
}
