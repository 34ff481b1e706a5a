package dev.protomolt.cli;

import dev.protomolt.core.orchestration.StateMachineNames;
import dev.protomolt.localstack.cloud.LocalCloudEndpoints;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.repository.v1.GetPipeDocRequest;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * What the cli's load tests do around the platform: upload a corpus to the intake bucket as a
 * user would, and read back the state the demo graph stored at one hop.
 */
final class IntakeUploads {

  private IntakeUploads() {}

  /**
   * Uploads each file under {@code <account>/<datasource>/}; returns the bytes by the doc id intake
   * gives them, in upload order.
   */
  static Map<String, byte[]> upload(
      LocalPlatform platform, String account, String datasource, Map<String, byte[]> corpus) {
    Map<String, byte[]> byDocId = new LinkedHashMap<>();
    LocalCloudEndpoints ep = platform.endpoints();
    try (S3Client s3 =
        S3Client.builder()
            .endpointOverride(ep.s3())
            .region(Region.of(ep.region()))
            .forcePathStyle(true)
            .httpClient(UrlConnectionHttpClient.create())
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(ep.accessKeyId(), ep.secretAccessKey())))
            .build()) {
      for (Map.Entry<String, byte[]> doc : corpus.entrySet()) {
        String key = account + "/" + datasource + "/" + doc.getKey();
        s3.putObject(
            b -> b.bucket(LocalPlatform.INTAKE_BUCKET).key(key).contentType("text/plain"),
            RequestBody.fromBytes(doc.getValue()));
        byDocId.put(
            StateMachineNames.hashOf("intake", LocalPlatform.INTAKE_BUCKET, key), doc.getValue());
      }
    }
    return byDocId;
  }

  /** Uploads one text file under {@code <account>/<datasource>/}; returns its doc id. */
  static String uploadOne(
      LocalPlatform platform, String account, String datasource, String key, String text) {
    return upload(platform, account, datasource, Map.of(key, text.getBytes(StandardCharsets.UTF_8)))
        .keySet()
        .iterator()
        .next();
  }

  /** The state the demo graph stored for {@code docId} at {@code node} (parts verified on read). */
  static PipeDoc storedAt(LocalPlatform platform, String account, String docId, String node) {
    return platform
        .store()
        .get(
            GetPipeDocRequest.newBuilder()
                .setDocumentRef(
                    DocumentReference.newBuilder()
                        .setDocId(docId)
                        .setGraphAddressId(node)
                        .setAccountId(account)
                        .setGraphId(DemoGraph.GRAPH_ID))
                .build())
        .getPipedoc();
  }
}
