package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.core.doclog.DocumentLog;
import dev.protomolt.core.doclog.LogKey;
import dev.protomolt.core.doclog.TextWindows;
import dev.protomolt.core.doclog.WindowSpec;
import dev.protomolt.proto.repository.v1.AnnotatePartRequest;
import dev.protomolt.proto.repository.v1.AppendLogRequest;
import dev.protomolt.proto.repository.v1.AppendLogResponse;
import dev.protomolt.proto.repository.v1.CompleteLogRequest;
import dev.protomolt.proto.repository.v1.DocumentLogServiceGrpc;
import dev.protomolt.proto.repository.v1.GetLogRequest;
import dev.protomolt.proto.repository.v1.ListLogPartsRequest;
import dev.protomolt.proto.repository.v1.ListLogPartsResponse;
import dev.protomolt.proto.repository.v1.LogPart;
import dev.protomolt.proto.repository.v1.LogRef;
import dev.protomolt.proto.repository.v1.LogStatus;
import dev.protomolt.proto.repository.v1.OpenLogRequest;
import dev.protomolt.proto.repository.v1.PartAnnotation;
import dev.protomolt.proto.repository.v1.PartSpan;
import dev.protomolt.proto.repository.v1.SearchLogsRequest;
import dev.protomolt.repository.doclog.PostgresDocumentLogStore;
import dev.protomolt.repository.doclog.PostgresLogPartIndex;
import dev.protomolt.repository.doclog.PostgresPartAnnotations;
import dev.protomolt.repository.fixtures.PostgresFixture;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The document-log door over a real socket, on embedded PostgreSQL. */
class DocumentLogGrpcServiceTest {

  private static PostgresFixture db;
  private static Server server;
  private static ManagedChannel channel;
  private static DocumentLogServiceGrpc.DocumentLogServiceBlockingStub logs;

  @BeforeAll
  static void start() throws Exception {
    db = PostgresFixture.start();
    server =
        NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
            .addService(
                new DocumentLogGrpcService(
                    new PostgresDocumentLogStore(db.dataSource()),
                    new PostgresLogPartIndex(db.dataSource()),
                    new PostgresPartAnnotations(db.dataSource(), Clock.systemUTC())))
            .build()
            .start();
    channel = NettyChannelBuilder.forAddress("127.0.0.1", server.getPort()).usePlaintext().build();
    logs = DocumentLogServiceGrpc.newBlockingStub(channel);
  }

  @AfterAll
  static void stop() throws Exception {
    channel.shutdownNow();
    server.shutdownNow();
    db.close();
  }

  private static LogRef freshLog() {
    return LogRef.newBuilder()
        .setCollection("acme")
        .setPath("jobs/build-" + UUID.randomUUID())
        .build();
  }

  private static LogStatus open(LogRef log) {
    return logs.openLog(OpenLogRequest.newBuilder().setLog(log).build());
  }

  private static AppendLogResponse append(LogRef log, String text, long offset) {
    return logs.appendLog(
        AppendLogRequest.newBuilder().setLog(log).setText(text).setOffset(offset).build());
  }

  private static String text(LogRef log) {
    return logs.getLog(GetLogRequest.newBuilder().setLog(log).build()).getText();
  }

  /** Text of {@code length} chars: numbered words, so every window differs. */
  private static String lines(int length) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; text.length() < length; i++) {
      text.append("line ").append(i).append(" compiling module ").append(i % 7).append('\n');
    }
    return text.substring(0, length);
  }

  @Test
  void partsAreWrittenAndSearchableBeforeTheLogIsSealedAndSealingRecordsTheHash() throws Exception {
    LogRef log = freshLog();
    assertThat(open(log).getWindowSize()).isEqualTo(1000);
    String word = "zebra" + UUID.randomUUID().toString().replace("-", "");
    String text = "start " + word + " " + lines(2494);

    AppendLogResponse first = append(log, text.substring(0, 1200), 0);
    assertThat(first.getPartsWrittenList()).containsExactly(0);
    // Still being written: the first part is found by a word only it holds.
    List<LogPart> hits =
        logs.searchLogs(SearchLogsRequest.newBuilder().setQuery(word).build()).getHitsList();
    assertThat(hits).extracting(LogPart::getIndex).containsExactly(0);
    assertThat(hits.getFirst().getLog()).isEqualTo(log);
    assertThat(text(log)).isEqualTo(text.substring(0, 1200));

    append(log, text.substring(1200), 1200);
    LogStatus sealed = logs.completeLog(CompleteLogRequest.newBuilder().setLog(log).build());

    List<dev.protomolt.core.doclog.DocumentPart> windows = TextWindows.cut(text);
    assertThat(sealed.getSealed()).isTrue();
    assertThat(sealed.getLength()).isEqualTo(text.length());
    assertThat(sealed.getPartsWritten()).isEqualTo(windows.size());
    assertThat(sealed.getSha256())
        .isEqualTo(
            HexFormat.of()
                .formatHex(
                    MessageDigest.getInstance("SHA-256")
                        .digest(text.getBytes(StandardCharsets.UTF_8))));
    ListLogPartsResponse parts =
        logs.listLogParts(ListLogPartsRequest.newBuilder().setLog(log).build());
    assertThat(parts.getPartsList())
        .extracting(LogPart::getText)
        .containsExactlyElementsOf(
            windows.stream().map(dev.protomolt.core.doclog.DocumentPart::text).toList());
    assertThat(text(log)).isEqualTo(text);
    assertThat(
            logs.getLog(GetLogRequest.newBuilder().setLog(log).setFromOffset(2000).build())
                .getText())
        .isEqualTo(text.substring(2000));
  }

  @Test
  void aRedeliveredAppendDoesNotDuplicateText() {
    LogRef log = freshLog();
    open(log);
    append(log, "alpha beta ", 0);
    AppendLogResponse again = append(log, "alpha beta gamma", 0);

    assertThat(again.getSkipped()).isEqualTo(11);
    assertThat(again.getAdded()).isEqualTo(5);
    assertThat(append(log, "gamma", 11).getAdded()).isZero();
    assertThat(text(log)).isEqualTo("alpha beta gamma");
  }

  @Test
  void aGapIsRefusedNamingTheOffsetsAndTakesNothing() {
    LogRef log = freshLog();
    open(log);
    append(log, "abc", 0);

    refused(() -> append(log, "xyz", 10), Status.Code.FAILED_PRECONDITION)
        .contains("producerOffset: 10 is past the end")
        .contains("holds 3 chars")
        .contains("append from offset 3");
    assertThat(text(log)).isEqualTo("abc");
  }

  @Test
  void annotationsRoundTripWithTheirPart() {
    LogRef log = freshLog();
    open(log);
    append(log, lines(1500), 0);

    PartAnnotation label =
        logs.annotatePart(
            AnnotatePartRequest.newBuilder()
                .setLog(log)
                .setPartIndex(0)
                .setKind("label")
                .setAuthor("triage-agent")
                .setBody("root-cause")
                .setSpan(PartSpan.newBuilder().setStart(10).setEnd(42))
                .build());
    PartAnnotation note =
        logs.annotatePart(
            AnnotatePartRequest.newBuilder()
                .setLog(log)
                .setPartIndex(0)
                .setKind("note")
                .setAuthor("kim")
                .setBody("the compiler ran out of memory here")
                .build());

    List<LogPart> parts =
        logs.listLogParts(ListLogPartsRequest.newBuilder().setLog(log).build()).getPartsList();
    assertThat(parts).hasSize(1);
    assertThat(parts.getFirst().getAnnotationsList()).containsExactly(label, note);
    assertThat(label.getSpan().getEnd()).isEqualTo(42);
    assertThat(note.hasSpan()).isFalse();
    assertThat(label.getLog()).isEqualTo(log);
  }

  @Test
  void aFurtherAnnotationKindIsOneRowOfTheKindMapping() throws Exception {
    LogRef log = freshLog();
    open(log);
    append(log, lines(1100), 0);
    AnnotatePartRequest triage =
        AnnotatePartRequest.newBuilder()
            .setLog(log)
            .setPartIndex(0)
            .setKind("severity")
            .setAuthor("ops")
            .setBody("high")
            .build();
    refused(() -> logs.annotatePart(triage), Status.Code.INVALID_ARGUMENT)
        .contains("kind: must be one of [finding, label, note]");

    try (Connection c = db.dataSource().getConnection();
        Statement s = c.createStatement()) {
      s.execute(
          "INSERT INTO document_log_annotation_kinds (kind, body_rule) VALUES ('severity',"
              + " 'label')");
    }
    assertThat(logs.annotatePart(triage).getKind()).isEqualTo("severity");
  }

  @Test
  void badAnnotationsAreRefusedNamingTheFieldAndTheRule() {
    LogRef log = freshLog();
    open(log);
    append(log, lines(1100), 0);
    AnnotatePartRequest good =
        AnnotatePartRequest.newBuilder()
            .setLog(log)
            .setPartIndex(0)
            .setKind("label")
            .setAuthor("kim")
            .setBody("flake")
            .build();

    refused(
            () -> logs.annotatePart(good.toBuilder().setBody("Root Cause").build()),
            Status.Code.INVALID_ARGUMENT)
        .contains("body: a label must be a lower-case name");
    refused(
            () -> logs.annotatePart(good.toBuilder().setAuthor(" ").build()),
            Status.Code.INVALID_ARGUMENT)
        .contains("author: must not be blank");
    refused(
            () -> logs.annotatePart(good.toBuilder().setPartIndex(1).build()),
            Status.Code.INVALID_ARGUMENT)
        .contains("partIndex: log acme:" + log.getPath() + " has no written part 1");
    refused(
            () ->
                logs.annotatePart(
                    good.toBuilder()
                        .setSpan(PartSpan.newBuilder().setStart(5).setEnd(1001))
                        .build()),
            Status.Code.INVALID_ARGUMENT)
        .contains("span.end: must not pass the end of part 0, which holds 1000 chars");
    refused(
            () ->
                logs.annotatePart(
                    good.toBuilder().setSpan(PartSpan.newBuilder().setStart(5).setEnd(5)).build()),
            Status.Code.INVALID_ARGUMENT)
        .contains("span.end: must be greater than span.start 5");
    assertThat(
            logs.listLogParts(ListLogPartsRequest.newBuilder().setLog(log).build())
                .getParts(0)
                .getAnnotationsList())
        .isEmpty();
  }

  @Test
  void theDoorRefusesWritingIntoThePlatformsOwnLogsButReadsThem() {
    LogRef workUnit =
        LogRef.newBuilder().setCollection("acme").setPath("logs/work-units/wu-1").build();
    refused(() -> open(workUnit), Status.Code.PERMISSION_DENIED)
        .contains("log.path: \"logs/work-units/wu-1\" lies under \"logs/work-units/\"");
    refused(
            () ->
                open(
                    LogRef.newBuilder()
                        .setCollection("acme")
                        .setPath("logs/executions/ex-1")
                        .build()),
            Status.Code.PERMISSION_DENIED)
        .contains("only the platform writes");
    refused(() -> text(workUnit), Status.Code.NOT_FOUND).contains("no log is open under");

    // The gateway files a work unit's log there itself; the door reads it.
    DocumentLog platform =
        new DocumentLog(
            new PostgresDocumentLogStore(db.dataSource()),
            new PostgresLogPartIndex(db.dataSource()));
    LogKey key = LogKey.workUnitLog("acme", "wu-2");
    platform.open(key, WindowSpec.DEFAULT);
    platform.append(key, "parsed 3 pages\n", 0);
    LogRef ref = LogRef.newBuilder().setCollection("acme").setPath(key.path()).build();
    assertThat(text(ref)).isEqualTo("parsed 3 pages\n");
    refused(() -> append(ref, "forged\n", 15), Status.Code.PERMISSION_DENIED).contains("log.path");
    assertThat(text(ref)).isEqualTo("parsed 3 pages\n");
  }

  @Test
  void badRequestsAreRefusedNamingTheField() {
    refused(
            () -> open(LogRef.newBuilder().setCollection("").setPath("x").build()),
            Status.Code.INVALID_ARGUMENT)
        .contains("log.collection: must not be blank");
    refused(
            () ->
                logs.openLog(
                    OpenLogRequest.newBuilder()
                        .setLog(freshLog())
                        .setWindowSize(100)
                        .setWindowOverlap(100)
                        .build()),
            Status.Code.INVALID_ARGUMENT)
        .contains("window_overlap: must be less than size 100");
    refused(
            () -> logs.searchLogs(SearchLogsRequest.newBuilder().setQuery("  ,. ").build()),
            Status.Code.INVALID_ARGUMENT)
        .contains("query: must contain at least one word");
    refused(
            () ->
                logs.searchLogs(
                    SearchLogsRequest.newBuilder().setQuery("x").setLimit(5000).build()),
            Status.Code.INVALID_ARGUMENT)
        .contains("limit: must be between 0 (the default) and 1000");
    refused(() -> append(freshLog(), "x", 0), Status.Code.NOT_FOUND)
        .contains("no log is open under");
    LogRef sealed = freshLog();
    open(sealed);
    append(sealed, "done\n", 0);
    logs.completeLog(CompleteLogRequest.newBuilder().setLog(sealed).build());
    refused(() -> append(sealed, "more\n", 5), Status.Code.FAILED_PRECONDITION)
        .contains("is sealed at 5 chars");
  }

  private static org.assertj.core.api.AbstractStringAssert<?> refused(
      ThrowingCallable call, Status.Code code) {
    Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(call);
    assertThat(thrown).isInstanceOf(StatusRuntimeException.class);
    Status status = ((StatusRuntimeException) thrown).getStatus();
    assertThat(status.getCode()).as(status.toString()).isEqualTo(code);
    return assertThat(status.getDescription());
  }
}
