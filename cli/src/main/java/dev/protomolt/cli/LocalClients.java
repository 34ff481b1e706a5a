package dev.protomolt.cli;

import dev.protomolt.localstack.cloud.LocalCloudEndpoints;
import java.net.URI;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * The AWS SDK clients a command uses against the local cloud, built from the same endpoints {@code
 * protomolt env} prints: what a user's own tools would use. No database connection: what the
 * platform recorded is read through the gateway's doors (decision 1523).
 */
final class LocalClients implements AutoCloseable {

  private final LocalCloudEndpoints endpoints;
  private final S3Client s3;
  private final SfnClient sfn;

  LocalClients(LocalCloudEndpoints endpoints) {
    this.endpoints = endpoints;
    StaticCredentialsProvider keys =
        StaticCredentialsProvider.create(
            AwsBasicCredentials.create(endpoints.accessKeyId(), endpoints.secretAccessKey()));
    this.s3 =
        S3Client.builder()
            .endpointOverride(endpoints.s3())
            .forcePathStyle(true)
            .region(Region.of(endpoints.region()))
            .credentialsProvider(keys)
            .overrideConfiguration(o -> o.addExecutionInterceptor(new NoExpectContinue()))
            .httpClient(UrlConnectionHttpClient.create())
            .build();
    this.sfn =
        SfnClient.builder()
            .endpointOverride(endpoints.stepFunctions().orElseThrow())
            .region(Region.of(endpoints.region()))
            .credentialsProvider(keys)
            .httpClient(UrlConnectionHttpClient.create())
            .build();
  }

  URI s3Endpoint() {
    return endpoints.s3();
  }

  URI sfnEndpoint() {
    return endpoints.stepFunctions().orElseThrow();
  }

  S3Client s3() {
    return s3;
  }

  String region() {
    return endpoints.region();
  }

  SfnClient sfn() {
    return sfn;
  }

  /**
   * Sends bodies without {@code Expect: 100-continue}. With it, the JDK's HttpURLConnection reports
   * any early answer from S3Proxy as an opaque "Error writing request body to server"; without it
   * the body is sent at once and S3's own error code reaches the user. Local bodies are small.
   */
  private static final class NoExpectContinue implements ExecutionInterceptor {
    @Override
    public SdkHttpRequest modifyHttpRequest(
        Context.ModifyHttpRequest context, ExecutionAttributes executionAttributes) {
      return context.httpRequest().toBuilder().removeHeader("Expect").build();
    }
  }

  @Override
  public void close() {
    s3.close();
    sfn.close();
  }
}
