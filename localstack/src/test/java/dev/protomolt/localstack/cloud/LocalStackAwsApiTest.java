package dev.protomolt.localstack.cloud;

import java.net.URI;
import org.junit.jupiter.api.BeforeAll;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.localstack.LocalStackContainer;
import org.testcontainers.utility.DockerImageName;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The same AWS API behaviour against LocalStack in Docker, for users who have a Docker engine.
 * Where there is none (as on the CI machines) Testcontainers disables the class: it is skipped,
 * never failed. The embedded local cloud stays the default and the one CI runs.
 */
@Testcontainers(disabledWithoutDocker = true)
class LocalStackAwsApiTest extends AwsApiBehaviourTest {

  /** Pinned: newer LocalStack images need an account token to start. */
  static final DockerImageName IMAGE = DockerImageName.parse("localstack/localstack:4.4");

  @Container
  static final LocalStackContainer LOCALSTACK =
      new LocalStackContainer(IMAGE).withServices("s3", "dynamodb", "stepfunctions");

  @BeforeAll
  static void createBucket() {
    try (S3Client s3 = new LocalStackAwsApiTest().s3()) {
      s3.createBucket(b -> b.bucket("behaviour"));
    }
  }

  @Override
  URI s3Endpoint() {
    return LOCALSTACK.getEndpoint();
  }

  @Override
  URI dynamoDbEndpoint() {
    return LOCALSTACK.getEndpoint();
  }

  @Override
  AwsBasicCredentials credentials() {
    return AwsBasicCredentials.create(LOCALSTACK.getAccessKey(), LOCALSTACK.getSecretKey());
  }

  @Override
  String bucket() {
    return "behaviour";
  }
}
