package dev.protomolt.localstack.meter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.localstack.cloud.LocalS3;
import dev.protomolt.localstack.lambda.LambdaResult;
import dev.protomolt.localstack.lambda.LocalLambdaRunner;
import dev.protomolt.localstack.s3.ObjectCreatedListener;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/** The meter counts what a real S3Proxy and the local Lambda runner served, by billed kind. */
class LocalCloudMeterTest {

  @TempDir Path data;

  @Test
  void s3RequestsAreCountedByTheKindS3BillsThemAs() {
    try (LocalS3 s3 =
            LocalS3.start(data, 0, "k", "secret", List.of("meter"), ObjectCreatedListener.NONE);
        S3Client client =
            S3Client.builder()
                .endpointOverride(s3.endpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(
                    StaticCredentialsProvider.create(AwsBasicCredentials.create("k", "secret")))
                .forcePathStyle(true)
                .httpClient(UrlConnectionHttpClient.create())
                .build()) {
      Map<String, Long> before = LocalCloudMeter.snapshot();
      client.putObject(b -> b.bucket("meter").key("a/one.txt"), RequestBody.fromString("one"));
      client.putObject(b -> b.bucket("meter").key("a/two.txt"), RequestBody.fromString("two"));
      client.copyObject(
          b ->
              b.sourceBucket("meter")
                  .sourceKey("a/one.txt")
                  .destinationBucket("meter")
                  .destinationKey("b/one.txt"));
      client.getObjectAsBytes(b -> b.bucket("meter").key("b/one.txt"));
      client.headObject(b -> b.bucket("meter").key("a/two.txt"));
      client.listObjectsV2(b -> b.bucket("meter").prefix("a/"));
      client.deleteObject(b -> b.bucket("meter").key("a/two.txt"));

      assertThat(LocalCloudMeter.since(before))
          .containsEntry("s3.PUT", 2L)
          .containsEntry("s3.COPY", 1L)
          .containsEntry("s3.GET", 1L)
          .containsEntry("s3.HEAD", 1L)
          .containsEntry("s3.LIST", 1L)
          .containsEntry("s3.DELETE", 1L);
    }
  }

  @Test
  void lambdaInvocationsAndTheirTimeAreCountedPerFunction() {
    LocalLambdaRunner lambdas = new LocalLambdaRunner("us-east-1", "000000000000");
    lambdas.register("meter-ok", (event, context) -> "{}");
    lambdas.register(
        "meter-fails",
        (event, context) -> {
          throw new IllegalStateException("refused");
        });
    Map<String, Long> before = LocalCloudMeter.snapshot();

    lambdas.invoke("meter-ok", "{}");
    lambdas.invoke("meter-ok", "{}");
    LambdaResult failed = lambdas.invoke("meter-fails", "{}");

    assertThat(failed).isInstanceOf(LambdaResult.Failure.class);
    Map<String, Long> gained = LocalCloudMeter.since(before);
    // A failed invocation is billed like any other.
    assertThat(gained)
        .containsEntry("lambda.invocations.meter-ok", 2L)
        .containsEntry("lambda.invocations.meter-fails", 1L);
    assertThat(gained.get("lambda.nanos.meter-ok")).isPositive();
  }
}
