package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.protomolt.localstack.cloud.LocalCloudEndpoints;
import dev.protomolt.localstack.cloud.LocalCloudSettings;
import dev.protomolt.module.samples.sink.SearchHit;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.repository.v1.GetPipeDocRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * The whole pipeline over real sockets in one JVM: a text file put into the intake bucket with the
 * AWS SDK is noticed by the S3 notification, admitted to the demo graph, carried by Step Functions
 * through the engine's hop functions, worked by the four sample modules through the gateway, and
 * ends indexed in the sink's Lucene index and stored at the sink's address.
 */
class LocalPlatformEndToEndTest {

  static final String ACCOUNT = "acme";
  static final String DATASOURCE = "docs";

  /** Real components need real time to start and run; a bound for failing, never a measurement. */
  static final Duration PATIENCE = Duration.ofSeconds(120);

  @TempDir Path data;

  @Test
  void anUploadedDocumentIsParsedChunkedEmbeddedIndexedAndStored() throws Exception {
    try (LocalPlatform platform = LocalPlatform.start(LocalCloudSettings.ephemeral(data), 0)) {
      platform.provisionAccount(ACCOUNT, DATASOURCE);
      long version =
          platform.applyAndActivate(DemoGraph.of(ACCOUNT, DATASOURCE, LocalPlatform.CLUSTER));
      assertThat(version).isEqualTo(1);

      byte[] text =
          ("Lighthouse keepers\n\nThe lamp at Skerryvore was lit at dusk and trimmed"
                  + " twice before dawn, while the keepers logged every passing ship.\n")
              .getBytes(StandardCharsets.UTF_8);
      LocalCloudEndpoints ep = platform.endpoints();
      try (S3Client s3 =
          S3Client.builder()
              .endpointOverride(ep.s3())
              .region(Region.of(ep.region()))
              .forcePathStyle(true)
              .credentialsProvider(
                  StaticCredentialsProvider.create(
                      AwsBasicCredentials.create(ep.accessKeyId(), ep.secretAccessKey())))
              .httpClient(UrlConnectionHttpClient.create())
              .build()) {
        s3.putObject(
            b ->
                b.bucket(LocalPlatform.INTAKE_BUCKET)
                    .key(ACCOUNT + "/" + DATASOURCE + "/notes/lighthouse.txt")
                    .contentType("text/plain"),
            RequestBody.fromBytes(text));
      }

      LocalPlatform.Admission admitted =
          eventually(
              "the upload admitted to the demo graph",
              () ->
                  platform.admissions(ACCOUNT).stream()
                      .filter(
                          a ->
                              a.graphId().equals(DemoGraph.GRAPH_ID) && !a.executionArn().isEmpty())
                      .findFirst());
      assertThat(admitted.outcome()).isEqualTo("STARTED");
      DescribeExecutionResponse done =
          eventually(
              "the execution to end",
              () -> {
                DescribeExecutionResponse d =
                    platform
                        .stepFunctions()
                        .describeExecution(b -> b.executionArn(admitted.executionArn()));
                return d.status() == ExecutionStatus.RUNNING ? Optional.empty() : Optional.of(d);
              });
      assertThat(done.status())
          .as("execution %s: %s %s", done.executionArn(), done.error(), done.cause())
          .isEqualTo(ExecutionStatus.SUCCEEDED);
      assertThat(new ObjectMapper().readTree(done.output()).path("disposition").asText())
          .isEqualTo("SINK_REACHED");

      List<SearchHit> hits = platform.indexSearch().text("Skerryvore", 5);
      assertThat(hits).extracting(SearchHit::docId).contains(admitted.docId());

      PipeDoc atSink =
          platform
              .store()
              .get(
                  GetPipeDocRequest.newBuilder()
                      .setDocumentRef(
                          DocumentReference.newBuilder()
                              .setDocId(admitted.docId())
                              .setGraphAddressId(DemoGraph.INDEX)
                              .setAccountId(ACCOUNT)
                              .setGraphId(DemoGraph.GRAPH_ID))
                      .build())
              .getPipedoc();
      assertThat(atSink.getSearchMetadata().getBody()).contains("The lamp at Skerryvore was lit");
      assertThat(atSink.getSearchMetadata().getSemanticResultsList())
          .as("the chunker's and the embedder's work reached the sink")
          .isNotEmpty();
      assertThat(sha256(atSink.getBlobBag().getBlob().getData().toByteArray()))
          .as("the uploaded bytes, bit for bit")
          .isEqualTo(sha256(text));
    }
  }

  static String sha256(byte[] bytes) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }

  /** Polls real components until {@code probe} yields a value; fails after {@link #PATIENCE}. */
  static <T> T eventually(String what, Supplier<Optional<T>> probe) throws InterruptedException {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    while (true) {
      Optional<T> value = probe.get();
      if (value.isPresent()) {
        return value.get();
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("never happened within " + PATIENCE + ": " + what);
      }
      Thread.sleep(50);
    }
  }
}
