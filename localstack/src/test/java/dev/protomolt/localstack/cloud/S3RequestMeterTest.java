package dev.protomolt.localstack.cloud;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.localstack.meter.LocalCloudMeter;
import dev.protomolt.localstack.s3.ObjectCreatedListener;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/** The meter counts what a real S3Proxy served, by the kind S3 bills each request as. */
class S3RequestMeterTest {

  @TempDir Path data;

  @Test
  void s3RequestsAreCountedByTheKindS3BillsThemAs() {
    try (LocalS3 s3 =
            LocalS3.start(
                data,
                0,
                LocalCloudSettings.DEFAULT_ACCESS_KEY_ID,
                LocalCloudSettings.DEFAULT_SECRET_ACCESS_KEY,
                List.of("meter"),
                ObjectCreatedListener.NONE);
        S3Client client = ComponentServersTest.s3Client(s3)) {
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
}
