package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.doclog.DocumentLog;
import dev.protomolt.core.doclog.LogOriginals;
import dev.protomolt.core.parts.Sha256Hex;
import dev.protomolt.proto.repository.v1.AppendLogRequest;
import dev.protomolt.proto.repository.v1.CompleteLogRequest;
import dev.protomolt.proto.repository.v1.DocumentLogServiceGrpc;
import dev.protomolt.proto.repository.v1.GetLogRequest;
import dev.protomolt.proto.repository.v1.GetLogResponse;
import dev.protomolt.proto.repository.v1.LogRef;
import dev.protomolt.proto.repository.v1.LogStatus;
import dev.protomolt.proto.repository.v1.OpenLogRequest;
import dev.protomolt.repository.doclog.PostgresDocumentLogStore;
import dev.protomolt.repository.doclog.PostgresLogPartIndex;
import dev.protomolt.repository.doclog.PostgresPartAnnotations;
import dev.protomolt.repository.doclog.S3LogOriginals;
import dev.protomolt.repository.fixtures.PostgresFixture;
import dev.protomolt.repository.fixtures.S3ProxyFixture;
import dev.protomolt.repository.s3.S3Clients;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/**
 * {@code GetLog} with {@code original}: the door reads a sealed log's stored original back from S3
 * (S3Proxy) and checks it against the seal's SHA-256; every refusal names the field.
 */
class DocumentLogOriginalTest {

  private static final String BUCKET = "platform";

  private static PostgresFixture db;
  private static S3ProxyFixture s3;
  private static S3Clients clients;
  private static Server server;
  private static Server withoutBucket;
  private static ManagedChannel channel;
  private static ManagedChannel channelWithoutBucket;

  @BeforeAll
  static void start() throws Exception {
    db = PostgresFixture.start();
    s3 = S3ProxyFixture.start("door-key", "door-secret");
    s3.createBucket(BUCKET);
    clients = new S3Clients(Map.of("platform", s3.settings()), List.of());
    PostgresDocumentLogStore store = new PostgresDocumentLogStore(db.dataSource());
    PostgresLogPartIndex index = new PostgresLogPartIndex(db.dataSource());
    PostgresPartAnnotations annotations =
        new PostgresPartAnnotations(db.dataSource(), Clock.systemUTC());
    LogOriginals originals = new S3LogOriginals(clients, BUCKET, "platform", S3ProxyFixture.REGION);
    server =
        NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
            .addService(
                new DocumentLogGrpcService(
                    new DocumentLog(store, index, originals), store, index, originals, annotations))
            .build()
            .start();
    withoutBucket =
        NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
            .addService(new DocumentLogGrpcService(store, index, annotations))
            .build()
            .start();
    channel = NettyChannelBuilder.forAddress("127.0.0.1", server.getPort()).usePlaintext().build();
    channelWithoutBucket =
        NettyChannelBuilder.forAddress("127.0.0.1", withoutBucket.getPort()).usePlaintext().build();
  }

  @AfterAll
  static void stop() throws Exception {
    channel.shutdownNow();
    channelWithoutBucket.shutdownNow();
    server.shutdownNow();
    withoutBucket.shutdownNow();
    clients.close();
    s3.close();
    db.close();
  }

  private static DocumentLogServiceGrpc.DocumentLogServiceBlockingStub logs(ManagedChannel via) {
    return DocumentLogServiceGrpc.newBlockingStub(via);
  }

  private static LogRef written(ManagedChannel via, String text, boolean seal) {
    LogRef log =
        LogRef.newBuilder().setCollection("acme").setPath("jobs/" + UUID.randomUUID()).build();
    var stub = logs(via);
    stub.openLog(OpenLogRequest.newBuilder().setLog(log).build());
    int half = text.length() / 2;
    stub.appendLog(
        AppendLogRequest.newBuilder().setLog(log).setText(text.substring(0, half)).build());
    stub.appendLog(
        AppendLogRequest.newBuilder()
            .setLog(log)
            .setText(text.substring(half))
            .setOffset(half)
            .build());
    if (seal) {
      stub.completeLog(CompleteLogRequest.newBuilder().setLog(log).build());
    }
    return log;
  }

  private static GetLogResponse original(ManagedChannel via, LogRef log) {
    return logs(via).getLog(GetLogRequest.newBuilder().setLog(log).setOriginal(true).build());
  }

  private static String text(int length) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; text.length() < length; i++) {
      text.append("step ").append(i).append(" ran \u00e9\u00e8 fine\n");
    }
    return text.substring(0, length);
  }

  @Test
  void aSealedLogsOriginalIsReadBackFromItsObject() {
    String text = text(3_400);
    LogRef log = written(channel, text, true);

    GetLogResponse got = original(channel, log);

    String key = "logs/acme/" + log.getPath();
    assertThat(got.getText()).isEqualTo(text);
    assertThat(got.getOriginal()).isEqualTo("s3://" + BUCKET + "/" + key);
    LogStatus status = got.getStatus();
    assertThat(status.getSealed()).isTrue();
    assertThat(status.getOriginal()).isEqualTo(got.getOriginal());
    assertThat(status.getSha256()).isEqualTo(Sha256Hex.of(text.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void anOpenLogHasNoOriginal() {
    LogRef log = written(channel, text(1_200), false);
    assertRefused(
        () -> original(channel, log), Status.Code.FAILED_PRECONDITION, "original: log acme:");
  }

  @Test
  void aLogSealedWithoutALogBucketSaysItsOriginalWasNotStored() {
    LogRef log = written(channelWithoutBucket, text(500), true);
    assertRefused(
        () -> original(channelWithoutBucket, log),
        Status.Code.FAILED_PRECONDITION,
        "was sealed without storing its original");
    // Reassembled from the parts, the text is still there.
    assertThat(
            logs(channelWithoutBucket)
                .getLog(GetLogRequest.newBuilder().setLog(log).build())
                .getText())
        .isEqualTo(text(500));
  }

  @Test
  void anOriginalThatNoLongerMatchesItsHashIsDataLossNotAnAnswer() {
    LogRef log = written(channel, text(800), true);
    try (S3Client admin = s3.adminClient()) {
      admin.putObject(
          PutObjectRequest.builder().bucket(BUCKET).key("logs/acme/" + log.getPath()).build(),
          RequestBody.fromString("tampered"));
    }
    assertRefused(() -> original(channel, log), Status.Code.DATA_LOSS, "but log acme:");
  }

  private static void assertRefused(Runnable call, Status.Code code, String message) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(code);
              assertThat(e.getStatus().getDescription()).contains(message);
            });
  }
}
