package dev.protomolt.engine.activation;

import java.net.URI;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sfn.SfnClient;

/** The SDK client and deployment settings the engine's Step Functions tests share. */
public final class EngineTestClients {

  public static final String ROLE = "arn:aws:iam::000000000000:role/protomolt-test";
  public static final EngineFunctions FUNCTIONS = new EngineFunctions("test",
      "arn:aws:lambda:us-east-1:000000000000:function:prepare",
      "arn:aws:lambda:us-east-1:000000000000:function:dispatch",
      "arn:aws:lambda:us-east-1:000000000000:function:complete",
      "arn:aws:lambda:us-east-1:000000000000:function:dlq");

  private EngineTestClients() {}

  public static SfnClient sfn(URI endpoint) {
    return SfnClient.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
        .httpClient(UrlConnectionHttpClient.create()).build();
  }
}
