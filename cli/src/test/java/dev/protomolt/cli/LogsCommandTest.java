package dev.protomolt.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.proto.repository.v1.AppendLogRequest;
import dev.protomolt.proto.repository.v1.CompleteLogRequest;
import dev.protomolt.proto.repository.v1.DocumentLogServiceGrpc;
import dev.protomolt.proto.repository.v1.ListLogPartsRequest;
import dev.protomolt.proto.repository.v1.LogRef;
import dev.protomolt.proto.repository.v1.OpenLogRequest;
import dev.protomolt.proto.repository.v1.PartAnnotation;
import dev.protomolt.testsupport.Eventually;
import io.grpc.ManagedChannel;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * {@code protomolt logs} against the shared running platform: the gateway serves the document-log
 * door on its one port, and the commands read, search and annotate a log still being written.
 */
@ExtendWith(SharedPlatform.Resolver.class)
class LogsCommandTest {

  private static String gateway;
  private static String gatewayCa;
  private static SharedPlatform shared;
  private static ManagedChannel channel;
  private static DocumentLogServiceGrpc.DocumentLogServiceBlockingStub logs;

  @BeforeAll
  static void connect(SharedPlatform platform) {
    shared = platform;
    gateway = shared.gateway();
    gatewayCa = shared.gatewayCa();
    channel =
        shared
            .platform()
            .gatewayChannel()
            .intercept(shared.platform().operatorCredentials().interceptor())
            .build();
    logs = DocumentLogServiceGrpc.newBlockingStub(channel);
  }

  @AfterAll
  static void close() {
    channel.shutdownNow();
  }

  /** A job log of numbered lines, one of them holding {@code word}, left open. */
  private static LogRef openLog(String word, int lines) {
    LogRef log =
        LogRef.newBuilder()
            .setCollection("logs-cli")
            .setPath("jobs/build-" + UUID.randomUUID())
            .build();
    logs.openLog(OpenLogRequest.newBuilder().setLog(log).build());
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < lines; i++) {
      text.append("step ").append(i).append(i == 3 ? " failed with " + word : " ok").append('\n');
    }
    logs.appendLog(
        AppendLogRequest.newBuilder().setLog(log).setText(text.toString()).setOffset(0).build());
    return log;
  }

  private static String name(LogRef log) {
    return log.getCollection() + ":" + log.getPath();
  }

  @Test
  void getAndTailPrintALogStillBeingWritten() {
    LogRef log = openLog("oom", 5);

    CommandRun get =
        CommandRun.of("logs", "get", name(log), "--gateway", gateway, "--gateway-ca", gatewayCa);
    assertThat(get.status()).as(get.toString()).isZero();
    assertThat(get.out()).startsWith("step 0 ok\n").endsWith("step 4 ok\n");
    assertThat(get.err()).contains("still open");

    CommandRun tail =
        CommandRun.of(
            "logs", "tail", name(log), "-n", "2", "--gateway", gateway, "--gateway-ca", gatewayCa);
    assertThat(tail.status()).as(tail.toString()).isZero();
    assertThat(tail.out()).isEqualTo("step 3 failed with oom\nstep 4 ok\n");

    logs.completeLog(CompleteLogRequest.newBuilder().setLog(log).build());
    CommandRun followed =
        CommandRun.of(
            "logs",
            "tail",
            name(log),
            "-n",
            "1",
            "--follow",
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa);
    // A sealed log ends --follow at once: the command returns instead of waiting.
    assertThat(followed.status()).as(followed.toString()).isZero();
    assertThat(followed.out()).isEqualTo("step 4 ok\n");
  }

  @Test
  void getOriginalPrintsTheSealedLogsStoredObject() {
    LogRef log = openLog("disk-full", 40);
    String text =
        CommandRun.of("logs", "get", name(log), "--gateway", gateway, "--gateway-ca", gatewayCa)
            .out();
    logs.completeLog(CompleteLogRequest.newBuilder().setLog(log).build());

    CommandRun original =
        CommandRun.of(
            "logs",
            "get",
            name(log),
            "--original",
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa);
    assertThat(original.status()).as(original.toString()).isZero();
    assertThat(original.out()).isEqualTo(text);
    String object = "logs/" + log.getCollection() + "/" + log.getPath();
    assertThat(original.err())
        .contains("read from s3://" + LocalPlatform.STORE_BUCKET + "/" + object);
    try (S3Client s3 = shared.s3()) {
      assertThat(
              s3.getObjectAsBytes(b -> b.bucket(LocalPlatform.STORE_BUCKET).key(object))
                  .asUtf8String())
          .isEqualTo(text);
    }

    LogRef open = openLog("still-going", 2);
    CommandRun refused =
        CommandRun.of(
            "logs",
            "get",
            name(open),
            "--original",
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa);
    assertThat(refused.status()).as(refused.toString()).isEqualTo(CommandFailure.REFUSED);
    assertThat(refused.err()).contains("original: log " + name(open) + " is not sealed");
  }

  @Test
  void getShowsADocumentsExecutionTranscriptHopByHop() {
    String account = "transcribed";
    // Datasource ids are global: other classes on the shared platform own "docs".
    String datasource = "transcribed-docs";
    shared.platform().provisionAccount(account, datasource);
    shared
        .platform()
        .applyAndActivate(
            DemoGraph.of(account, datasource, LocalPlatform.CLUSTER).toBuilder()
                .setGraphId("transcribed")
                .setName("transcribed")
                .build());
    IntakeUploads.upload(
        shared.platform(),
        account,
        datasource,
        Map.of("notes.txt", "Transcripts list every hop of a document.".getBytes(UTF_8)));
    String execution =
        Eventually.value(
            "the uploaded document's execution to end",
            () ->
                shared.platform().admissions(account).stream()
                    .map(LocalPlatform.Admission::executionArn)
                    .filter(arn -> !arn.isEmpty())
                    .filter(
                        arn ->
                            shared
                                    .platform()
                                    .stepFunctions()
                                    .describeExecution(b -> b.executionArn(arn))
                                    .status()
                                != ExecutionStatus.RUNNING)
                    .findFirst());
    String transcript =
        account + ":logs/executions/" + execution.substring(execution.lastIndexOf(':') + 1);

    CommandRun get =
        CommandRun.of("logs", "get", transcript, "--gateway", gateway, "--gateway-ca", gatewayCa);
    assertThat(get.status()).as(get.toString()).isZero();
    List<String> events =
        get.out()
            .lines()
            .skip(1)
            .map(l -> l.substring(l.indexOf(" hop ") + 1).replaceAll(" \\(work unit \\w+\\)", ""))
            .toList();
    assertThat(get.out()).startsWith("# execution " + execution + " of doc ");
    assertThat(events)
        .containsExactly(
            "hop 1 node intake SUCCESS -> parse",
            "hop 2 node parse queued for module parser",
            "hop 2 node parse SUCCESS -> chunk",
            "hop 3 node chunk queued for module chunker",
            "hop 3 node chunk SUCCESS -> embed",
            "hop 4 node embed queued for module embedder",
            "hop 4 node embed SUCCESS -> index",
            "hop 5 node index queued for module index-sink",
            "hop 5 node index SUCCESS");
    assertThat(get.err()).contains("still open");
  }

  @Test
  void searchFindsAnUnsealedLogAndAnnotateLabelsTheHit() {
    String word = "segv" + UUID.randomUUID().toString().replace("-", "");
    LogRef log = openLog(word, 150);

    CommandRun search =
        CommandRun.of("logs", "search", word, "--gateway", gateway, "--gateway-ca", gatewayCa);
    assertThat(search.status()).as(search.toString()).isZero();
    assertThat(search.out())
        .isEqualTo(name(log) + " part 0 at 0: step 3 failed with " + word + "\n");

    CommandRun annotate =
        CommandRun.of(
            "logs",
            "annotate",
            name(log),
            "--part",
            "0",
            "--kind",
            "label",
            "--author",
            "kim",
            "--body",
            "root-cause",
            "--span",
            "0-10",
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa);
    assertThat(annotate.status()).as(annotate.toString()).isZero();
    assertThat(annotate.out()).startsWith("label ").endsWith(" on " + name(log) + " part 0\n");
    List<PartAnnotation> listed =
        logs.listLogParts(ListLogPartsRequest.newBuilder().setLog(log).build())
            .getParts(0)
            .getAnnotationsList();
    assertThat(listed).hasSize(1);
    assertThat(listed.getFirst().getBody()).isEqualTo("root-cause");
    assertThat(listed.getFirst().getSpan().getEnd()).isEqualTo(10);
  }

  @Test
  void badInputsAreRefusedNamingWhatToFix() {
    CommandRun noColon =
        CommandRun.of(
            "logs", "get", "just-a-path", "--gateway", gateway, "--gateway-ca", gatewayCa);
    assertThat(noColon.status()).isEqualTo(CommandFailure.REFUSED);
    assertThat(noColon.err()).contains("LOG: must be COLLECTION:PATH");

    CommandRun unknown =
        CommandRun.of(
            "logs",
            "get",
            "logs-cli:jobs/never-opened",
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa);
    assertThat(unknown.status()).isEqualTo(CommandFailure.REFUSED);
    assertThat(unknown.err()).contains("not found").contains("no log is open under");

    LogRef log = openLog("x", 1);
    CommandRun badLabel =
        CommandRun.of(
            "logs",
            "annotate",
            name(log),
            "--part",
            "0",
            "--kind",
            "label",
            "--author",
            "kim",
            "--body",
            "Root Cause",
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa);
    assertThat(badLabel.status()).as(badLabel.toString()).isEqualTo(CommandFailure.REFUSED);
    assertThat(badLabel.err()).contains("body: a label must be a lower-case name");

    CommandRun badSpan =
        CommandRun.of(
            "logs",
            "annotate",
            name(log),
            "--part",
            "0",
            "--author",
            "kim",
            "--body",
            "b",
            "--span",
            "7",
            "--gateway",
            gateway,
            "--gateway-ca",
            gatewayCa);
    assertThat(badSpan.err()).contains("--span: must be START-END");
  }
}
