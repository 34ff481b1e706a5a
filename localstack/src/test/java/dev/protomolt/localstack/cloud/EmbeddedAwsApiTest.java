package dev.protomolt.localstack.cloud;

import dev.protomolt.localstack.s3.ObjectCreatedListener;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;

/** The AWS API behaviour against the embedded S3Proxy and dynalite. */
class EmbeddedAwsApiTest extends AwsApiBehaviourTest {

  private static final AwsBasicCredentials KEYS =
      AwsBasicCredentials.create(
          LocalCloudSettings.DEFAULT_ACCESS_KEY_ID, LocalCloudSettings.DEFAULT_SECRET_ACCESS_KEY);

  @TempDir static Path data;
  private static LocalS3 s3;
  private static LocalDynamoDb dynamoDb;

  @BeforeAll
  static void start() {
    s3 =
        LocalS3.start(
            data.resolve("s3"),
            0,
            KEYS.accessKeyId(),
            KEYS.secretAccessKey(),
            List.of("behaviour"),
            ObjectCreatedListener.NONE);
    dynamoDb = LocalDynamoDb.start(data.resolve("dynamodb"), 0);
  }

  @AfterAll
  static void stop() {
    dynamoDb.close();
    s3.close();
  }

  @Override
  URI s3Endpoint() {
    return s3.endpoint();
  }

  @Override
  URI dynamoDbEndpoint() {
    return dynamoDb.endpoint();
  }

  @Override
  AwsBasicCredentials credentials() {
    return KEYS;
  }

  @Override
  String bucket() {
    return "behaviour";
  }
}
