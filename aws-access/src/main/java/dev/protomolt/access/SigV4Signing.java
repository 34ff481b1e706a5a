package dev.protomolt.access;

import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * A request signed with the AWS SDK's SigV4 signer, for the calls made over the SDK's HTTP client
 * without a generated service client: MSK's {@code GetBootstrapBrokers} and OTLP exports to X-Ray.
 */
public final class SigV4Signing {

  private SigV4Signing() {}

  /**
   * @param payload the body the signature covers; null for a request without one
   * @param service the SigV4 signing name, e.g. {@code kafka} or {@code xray}
   */
  public static SdkHttpRequest sign(
      SdkHttpRequest request,
      ContentStreamProvider payload,
      AwsCredentialsProvider credentials,
      String service,
      String region) {
    AwsCredentialsIdentity identity = credentials.resolveCredentials();
    SignRequest.Builder<AwsCredentialsIdentity> sign =
        SignRequest.builder(identity)
            .request(request)
            .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, service)
            .putProperty(AwsV4HttpSigner.REGION_NAME, region);
    if (payload != null) {
      sign.payload(payload);
    }
    return AwsV4HttpSigner.create().sign(sign.build()).request();
  }
}
