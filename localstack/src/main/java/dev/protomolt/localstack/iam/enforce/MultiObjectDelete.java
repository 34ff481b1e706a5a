package dev.protomolt.localstack.iam.enforce;

import dev.protomolt.localstack.iam.AccessDecision;
import dev.protomolt.localstack.iam.AccessRequest;
import dev.protomolt.localstack.iam.IamPrincipal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Logger;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.services.s3.model.DeleteObjectsRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.DeletedObject;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Error;

/**
 * DeleteObjects as S3 authorizes it: {@code s3:DeleteObject} is checked per key, the permitted
 * keys are deleted and each refused key comes back in the response's {@code Errors} with code
 * {@code AccessDenied}, while the call itself succeeds. The keys the caller may not delete are
 * taken out of the request before it is sent, and their errors added to the response.
 *
 * <p>S3 refuses a DeleteObjects with no keys, so when every key is refused the request is sent for
 * one placeholder key that no object has (deleting a missing key is a no-op in S3), and that key is
 * left out of the response.
 */
final class MultiObjectDelete {

  private static final Logger LOG = Logger.getLogger(MultiObjectDelete.class.getName());
  private static final String PLACEHOLDER_PREFIX = ".protomolt-local-iam/none-permitted-";

  /** Set once a request was screened key by key; the whole-call check then skips it. */
  static final ExecutionAttribute<List<S3Error>> REFUSED =
      new ExecutionAttribute<>("protomolt.localIam.refusedDeleteKeys");

  private static final ExecutionAttribute<String> PLACEHOLDER =
      new ExecutionAttribute<>("protomolt.localIam.placeholderDeleteKey");

  private MultiObjectDelete() {}

  static DeleteObjectsRequest screen(
      DeleteObjectsRequest request, String accessKeyId, ExecutionAttributes attributes) {
    Optional<IamEnforcement.Caller> caller = IamEnforcement.caller(accessKeyId);
    if (caller.isEmpty() || request.delete() == null) {
      return request;
    }
    IamPrincipal principal = caller.get().principal();
    List<ObjectIdentifier> permitted = new ArrayList<>();
    List<S3Error> refused = new ArrayList<>();
    for (ObjectIdentifier id : request.delete().objects()) {
      String action = id.versionId() == null ? "s3:DeleteObject" : "s3:DeleteObjectVersion";
      AccessRequest asked =
          AccessRequest.of(action, "arn:aws:s3:::" + request.bucket() + "/" + id.key());
      AccessDecision decision = principal.evaluate(asked);
      if (decision.allowed()) {
        permitted.add(id);
      } else {
        LOG.warning(
            "IAM denied "
                + principal.name()
                + ": "
                + action
                + " on "
                + asked.resource()
                + " (DeleteObjects) "
                + decision.reason());
        refused.add(
            S3Error.builder()
                .key(id.key())
                .versionId(id.versionId())
                .code("AccessDenied")
                .message("Access Denied")
                .build());
      }
    }
    attributes.putAttribute(REFUSED, refused);
    if (refused.isEmpty()) {
      return request;
    }
    if (permitted.isEmpty()) {
      String placeholder = PLACEHOLDER_PREFIX + UUID.randomUUID();
      attributes.putAttribute(PLACEHOLDER, placeholder);
      permitted.add(ObjectIdentifier.builder().key(placeholder).build());
    }
    return request.toBuilder()
        .delete(request.delete().toBuilder().objects(permitted).build())
        .build();
  }

  static SdkResponse report(SdkResponse response, ExecutionAttributes attributes) {
    List<S3Error> refused = attributes.getAttribute(REFUSED);
    if (refused == null
        || refused.isEmpty()
        || !(response instanceof DeleteObjectsResponse deleted)) {
      return response;
    }
    String placeholder = attributes.getAttribute(PLACEHOLDER);
    List<DeletedObject> kept =
        deleted.deleted().stream().filter(d -> !d.key().equals(placeholder)).toList();
    List<S3Error> errors = new ArrayList<>(deleted.errors());
    errors.addAll(refused);
    return deleted.toBuilder().deleted(kept).errors(errors).build();
  }
}
