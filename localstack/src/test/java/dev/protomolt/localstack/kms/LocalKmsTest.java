package dev.protomolt.localstack.kms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.localstack.lambda.api.FunctionRegistry;
import dev.protomolt.localstack.lambda.api.LambdaApiServer;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.kms.KmsClient;
import software.amazon.awssdk.services.kms.model.DataKeySpec;
import software.amazon.awssdk.services.kms.model.GenerateDataKeyResponse;
import software.amazon.awssdk.services.kms.model.IncorrectKeyException;
import software.amazon.awssdk.services.kms.model.InvalidCiphertextException;
import software.amazon.awssdk.services.kms.model.NotFoundException;

/**
 * The local KMS through the AWS SDK's own KmsClient, on the AWS API port it shares with Lambda's
 * API and STS: the data-key round trip the platform relies on, and KMS's refusals.
 */
class LocalKmsTest {

  @TempDir Path data;
  private LambdaApiServer server;
  private KmsClient kms;

  @BeforeEach
  void start() throws Exception {
    server =
        LambdaApiServer.start(
            0, new FunctionRegistry(), null, null, new LocalKms(data, "us-east-1", "000000000000"));
    kms = client(server);
  }

  private static KmsClient client(LambdaApiServer server) {
    return KmsClient.builder()
        .endpointOverride(server.endpoint())
        .region(Region.US_EAST_1)
        .httpClient(UrlConnectionHttpClient.create())
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
        .build();
  }

  @AfterEach
  void stop() {
    kms.close();
    server.close();
  }

  @Test
  void aDataKeyDecryptsToItsPlaintextUnderItsKeyAndSurvivesARestart() throws Exception {
    String keyArn = kms.createKey(b -> {}).keyMetadata().arn();
    GenerateDataKeyResponse generated =
        kms.generateDataKey(b -> b.keyId(keyArn).keySpec(DataKeySpec.AES_256));
    assertThat(generated.plaintext().asByteArray()).hasSize(32);
    assertThat(generated.keyId()).isEqualTo(keyArn);
    assertThat(java.util.HexFormat.of().formatHex(generated.ciphertextBlob().asByteArray()))
        .doesNotContain(java.util.HexFormat.of().formatHex(generated.plaintext().asByteArray()));

    // Keys live in the data folder: a new local cloud on the same folder still decrypts.
    stop();
    start();
    byte[] opened =
        kms.decrypt(b -> b.keyId(keyArn).ciphertextBlob(generated.ciphertextBlob()))
            .plaintext()
            .asByteArray();
    assertThat(opened).isEqualTo(generated.plaintext().asByteArray());
  }

  @Test
  void anUnknownKeyAWrongKeyAndATamperedBlobAreRefusedAsKmsRefusesThem() {
    String first = kms.createKey(b -> {}).keyMetadata().keyId();
    String second = kms.createKey(b -> {}).keyMetadata().keyId();
    assertThatThrownBy(
            () ->
                kms.generateDataKey(
                    b ->
                        b.keyId("0b1c2d3e-0000-4000-8000-000000000000")
                            .keySpec(DataKeySpec.AES_256)))
        .isInstanceOf(NotFoundException.class)
        .hasMessageContaining("does not exist");
    SdkBytes blob =
        kms.generateDataKey(b -> b.keyId(first).keySpec(DataKeySpec.AES_256)).ciphertextBlob();
    assertThatThrownBy(() -> kms.decrypt(b -> b.keyId(second).ciphertextBlob(blob)))
        .isInstanceOf(IncorrectKeyException.class);
    byte[] tampered = blob.asByteArray();
    tampered[tampered.length - 1] ^= 1;
    assertThatThrownBy(
            () -> kms.decrypt(b -> b.keyId(first).ciphertextBlob(SdkBytes.fromByteArray(tampered))))
        .isInstanceOf(InvalidCiphertextException.class);
  }
}
