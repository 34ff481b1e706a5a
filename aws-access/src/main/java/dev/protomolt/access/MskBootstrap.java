package dev.protomolt.access;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;

/**
 * The IAM listener's brokers of an MSK cluster, asked once per container with MSK's
 * {@code GetBootstrapBrokers} ({@code GET /v1/clusters/<arn>/bootstrap-brokers}, SigV4 service
 * {@code kafka}). The call is made over the SDK's HTTP client and signer because the SDK's
 * generated MSK client is not available to this build.
 */
public final class MskBootstrap {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final SdkHttpClient http;
  private final AwsCredentialsProvider credentials;
  private final String region;
  private final URI endpoint;

  /**
   * @param endpoint the MSK API, {@code https://kafka.<region>.amazonaws.com} in AWS
   */
  public MskBootstrap(
      SdkHttpClient http, AwsCredentialsProvider credentials, String region, URI endpoint) {
    this.http = Objects.requireNonNull(http, "http");
    this.credentials = Objects.requireNonNull(credentials, "credentials");
    this.region = Objects.requireNonNull(region, "region");
    this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
  }

  public static URI awsEndpoint(String region) {
    return URI.create("https://kafka." + region + ".amazonaws.com");
  }

  public static String servers(BrokerAccess access, MskBootstrap msk) {
    return switch (access) {
      case BrokerAccess.Bootstrap plain -> plain.servers();
      case BrokerAccess.MskIam iam -> msk.iamBrokers(iam.clusterArn());
    };
  }

  public String iamBrokers(String clusterArn) {
    SdkHttpRequest request =
        SdkHttpRequest.builder()
            .method(SdkHttpMethod.GET)
            .uri(
                endpoint.resolve(
                    "/v1/clusters/"
                        + URLEncoder.encode(clusterArn, StandardCharsets.UTF_8)
                        + "/bootstrap-brokers"))
            .putHeader("Accept", "application/json")
            .build();
    SdkHttpRequest signed = SigV4Signing.sign(request, null, credentials, "kafka", region);
    try {
      HttpExecuteResponse response =
          http.prepareRequest(HttpExecuteRequest.builder().request(signed).build()).call();
      String body;
      if (response.responseBody().isPresent()) {
        try (InputStream in = response.responseBody().get()) {
          body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
      } else {
        body = "";
      }
      if (!response.httpResponse().isSuccessful()) {
        throw new IllegalStateException(
            "PROTOMOLT_KAFKA_CLUSTER_ARN: GetBootstrapBrokers for "
                + clusterArn
                + " answered "
                + response.httpResponse().statusCode()
                + ": "
                + body);
      }
      JsonNode brokers = JSON.readTree(body).path("BootstrapBrokerStringSaslIam");
      if (!brokers.isTextual() || brokers.asText().isBlank()) {
        throw new IllegalStateException(
            "PROTOMOLT_KAFKA_CLUSTER_ARN: cluster "
                + clusterArn
                + " has no IAM listener (GetBootstrapBrokers returned no"
                + " BootstrapBrokerStringSaslIam)");
      }
      return brokers.asText();
    } catch (IOException e) {
      throw new IllegalStateException(
          "PROTOMOLT_KAFKA_CLUSTER_ARN: GetBootstrapBrokers for "
              + clusterArn
              + " failed: "
              + e.getMessage(),
          e);
    }
  }
}
