package dev.protomolt.localstack.iam.enforce;

import dev.protomolt.localstack.iam.AccessRequest;
import java.util.List;
import software.amazon.awssdk.services.kms.model.KmsRequest;

/**
 * KMS operations as KMS authorizes them: the action of the operation's name on the key's ARN. The
 * local cloud needs the key named in the request ({@code KeyId}, an id or a key ARN); a Decrypt
 * that leaves KMS to find the key in the blob is refused, since the platform always names it.
 */
final class KmsActions {

  private KmsActions() {}

  static List<AccessRequest> of(
      KmsRequest request, String operation, String region, String account) {
    String keyId = request.getValueForField("KeyId", String.class).orElse(null);
    if (keyId == null || keyId.isBlank()) {
      if (operation.equals("CreateKey")) {
        return List.of(AccessRequest.of("kms:CreateKey", "*"));
      }
      // Without KeyId, KMS finds the key in the blob; the platform always names it.
      throw new OperationNotMappedException("KMS", operation + " without a KeyId", "KmsActions");
    }
    String arn =
        keyId.startsWith("arn:")
            ? keyId
            : "arn:aws:kms:" + region + ":" + account + ":key/" + keyId;
    return List.of(AccessRequest.of("kms:" + operation, arn));
  }
}
