package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.core.orchestration.StateMachineNames;
import dev.protomolt.localstack.cloud.LocalCloudEndpoints;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.repository.v1.GetPipeDocRequest;
import dev.protomolt.testsupport.Eventually;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

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
    return storedAt(platform, account, DemoGraph.GRAPH_ID, docId, node);
  }

  /**
   * The states a demo-shaped graph {@code graphId} stored for {@code docId} at each of its four
   * hops, by node, each checked to carry the uploaded bytes bit for bit (the store verifies every
   * part's SHA-256 on read). The indexed state is the exception once settlement dropped its BLOBS
   * by the graph's post-parse policy after the sink's receipt.
   */
  static Map<String, PipeDoc> storedAtEveryHop(
      LocalPlatform platform, String account, String graphId, String docId, byte[] original) {
    Map<String, PipeDoc> byNode = new LinkedHashMap<>();
    for (String node :
        List.of(DemoGraph.PARSE, DemoGraph.CHUNK, DemoGraph.EMBED, DemoGraph.INDEX)) {
      PipeDoc stored = storedAt(platform, account, graphId, docId, node);
      if (!(node.equals(DemoGraph.INDEX) && !stored.getBlobBag().hasBlob())) {
        assertThat(sha256(stored.getBlobBag().getBlob().getData().toByteArray()))
            .as("the original bytes of %s at %s", docId, node)
            .isEqualTo(sha256(original));
      }
      byNode.put(node, stored);
    }
    return byNode;
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  /** The state graph {@code graphId} stored for {@code docId} at {@code node}. */
  static PipeDoc storedAt(
      LocalPlatform platform, String account, String graphId, String docId, String node) {
    return platform
        .store()
        .get(
            GetPipeDocRequest.newBuilder()
                .setDocumentRef(
                    DocumentReference.newBuilder()
                        .setDocId(docId)
                        .setGraphAddressId(node)
                        .setAccountId(account)
                        .setGraphId(graphId))
                .build())
        .getPipedoc();
  }

  /**
   * Polls until every one of {@code docIds}' executions on graph version {@code version} has
   * ended, printing progress every 50; fails once none ends for {@code stall}, naming a few that
   * had not.
   */
  static Map<String, DescribeExecutionResponse> awaitEnded(
      LocalPlatform platform, String account, long version, Set<String> docIds, Duration stall) {
    Map<String, DescribeExecutionResponse> ended = new HashMap<>();
    Eventually.whileProgressing(
        "every document's execution to end",
        stall,
        () -> {
          for (LocalPlatform.Admission a : platform.admissions(account)) {
            if (a.graphVersion() != version
                || !docIds.contains(a.docId())
                || ended.containsKey(a.docId())
                || a.executionArn().isEmpty()) {
              continue;
            }
            DescribeExecutionResponse d =
                platform.stepFunctions().describeExecution(b -> b.executionArn(a.executionArn()));
            if (d.status() != ExecutionStatus.RUNNING) {
              ended.put(a.docId(), d);
              if (ended.size() % 50 == 0) {
                System.out.println(ended.size() + " of " + docIds.size() + " documents ended");
              }
            }
          }
          List<String> missing =
              docIds.stream().filter(id -> !ended.containsKey(id)).limit(5).toList();
          return new Unended(docIds.size() - ended.size(), docIds.size(), missing);
        },
        unended -> -unended.count(),
        unended -> unended.count() == 0);
    return ended;
  }

  /** Documents whose execution has not ended yet, as many and a few of them by id. */
  private record Unended(int count, int of, List<String> examples) {
    @Override
    public String toString() {
      return count + " of " + of + " documents had not ended, e.g. " + examples;
    }
  }
}
