package dev.protomolt.localstack.s3;

import java.io.InputStream;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.blobstore.ForwardingBlobStore;
import org.gaul.s3proxy.blobstore.domain.MultipartUpload;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CopyObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;

/**
 * The S3Proxy store wrapped so that every successful object creation is reported, whichever S3
 * client made it. S3Proxy has no event notifications of its own; the three writes that create an
 * object in S3 (put, copy, complete multipart upload) all pass through here (decision 0400).
 */
public final class NotifyingBlobStore extends ForwardingBlobStore {

  /**
   * S3Proxy keeps a stub object per open multipart upload through the same store; it is
   * bookkeeping, not an object any client created, so it is never reported.
   */
  static final String S3PROXY_INTERNAL_PREFIX = ".s3proxy-";

  private final ObjectCreatedListener listener;

  public NotifyingBlobStore(BlobStore delegate, ObjectCreatedListener listener) {
    super(delegate);
    this.listener = listener;
  }

  @Override
  public PutObjectResponse putBlob(PutObjectRequest request, InputStream input) {
    PutObjectResponse response = super.putBlob(request, input);
    report(ObjectCreated.PUT, request.bucket(), request.key(), response.eTag());
    return response;
  }

  @Override
  public CopyObjectResponse copyBlob(CopyObjectRequest request) {
    CopyObjectResponse response = super.copyBlob(request);
    String eTag = response.copyObjectResult() == null ? null : response.copyObjectResult().eTag();
    report(ObjectCreated.COPY, request.destinationBucket(), request.destinationKey(), eTag);
    return response;
  }

  @Override
  public CompleteMultipartUploadResponse completeMultipartUpload(
      MultipartUpload upload, CompleteMultipartUploadRequest request) {
    CompleteMultipartUploadResponse response = super.completeMultipartUpload(upload, request);
    report(
        ObjectCreated.COMPLETE_MULTIPART_UPLOAD, request.bucket(), request.key(), response.eTag());
    return response;
  }

  private void report(String eventName, String bucket, String key, String eTag) {
    if (key.startsWith(S3PROXY_INTERNAL_PREFIX)) {
      return;
    }
    // The size is read back from the store: chunked uploads do not declare it up front.
    HeadObjectResponse head = delegate().blobMetadataIfPresent(bucket, key);
    long size = head == null || head.contentLength() == null ? 0L : head.contentLength();
    String tag = eTag != null ? eTag : head == null ? null : head.eTag();
    listener.objectCreated(eventName, bucket, key, size, tag);
  }
}
