package dev.protomolt.localstack.iam.enforce;

import java.util.List;
import software.amazon.awssdk.http.SdkHttpRequest;

/**
 * The access key a signed request was signed with, read where AWS itself reads it: the {@code
 * Credential=<key>/<scope>} of the SigV4 (or SigV4a) {@code Authorization} header, or the {@code
 * X-Amz-Credential} query parameter of a presigned URL. Null for an unsigned request.
 */
final class SigningKey {

  private static final String CREDENTIAL = "Credential=";

  private SigningKey() {}

  static String accessKeyId(SdkHttpRequest request) {
    String authorization = request.firstMatchingHeader("Authorization").orElse(null);
    if (authorization != null) {
      int start = authorization.indexOf(CREDENTIAL);
      if (start >= 0) {
        return keyOf(authorization.substring(start + CREDENTIAL.length()));
      }
    }
    List<String> query = request.rawQueryParameters().get("X-Amz-Credential");
    return query == null || query.isEmpty() ? null : keyOf(query.get(0));
  }

  private static String keyOf(String credential) {
    int slash = credential.indexOf('/');
    return slash > 0 ? credential.substring(0, slash) : null;
  }
}
