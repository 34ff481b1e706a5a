package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.proto.repository.v1.AppendLogRequest;
import dev.protomolt.proto.repository.v1.CompleteLogRequest;
import dev.protomolt.proto.repository.v1.DocumentLogServiceGrpc;
import dev.protomolt.proto.repository.v1.ListLogPartsRequest;
import dev.protomolt.proto.repository.v1.LogRef;
import dev.protomolt.proto.repository.v1.OpenLogRequest;
import dev.protomolt.proto.repository.v1.PartAnnotation;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code protomolt logs} against the shared running platform: the gateway serves the document-log
 * door on its one port, and the commands read, search and annotate a log still being written.
 */
@ExtendWith(SharedPlatform.Resolver.class)
class LogsCommandTest {

  private static String gateway;
  private static ManagedChannel channel;
  private static DocumentLogServiceGrpc.DocumentLogServiceBlockingStub logs;

  @BeforeAll
  static void connect(SharedPlatform shared) {
    gateway = shared.gateway();
    channel =
        NettyChannelBuilder.forAddress("127.0.0.1", shared.platform().gatewayPort())
            .usePlaintext()
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

    CommandRun get = CommandRun.of("logs", "get", name(log), "--gateway", gateway);
    assertThat(get.status()).as(get.toString()).isZero();
    assertThat(get.out()).startsWith("step 0 ok\n").endsWith("step 4 ok\n");
    assertThat(get.err()).contains("still open");

    CommandRun tail = CommandRun.of("logs", "tail", name(log), "-n", "2", "--gateway", gateway);
    assertThat(tail.status()).as(tail.toString()).isZero();
    assertThat(tail.out()).isEqualTo("step 3 failed with oom\nstep 4 ok\n");

    logs.completeLog(CompleteLogRequest.newBuilder().setLog(log).build());
    CommandRun followed =
        CommandRun.of("logs", "tail", name(log), "-n", "1", "--follow", "--gateway", gateway);
    // A sealed log ends --follow at once: the command returns instead of waiting.
    assertThat(followed.status()).as(followed.toString()).isZero();
    assertThat(followed.out()).isEqualTo("step 4 ok\n");
  }

  @Test
  void searchFindsAnUnsealedLogAndAnnotateLabelsTheHit() {
    String word = "segv" + UUID.randomUUID().toString().replace("-", "");
    LogRef log = openLog(word, 150);

    CommandRun search = CommandRun.of("logs", "search", word, "--gateway", gateway);
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
            gateway);
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
    CommandRun noColon = CommandRun.of("logs", "get", "just-a-path", "--gateway", gateway);
    assertThat(noColon.status()).isEqualTo(CommandFailure.REFUSED);
    assertThat(noColon.err()).contains("LOG: must be COLLECTION:PATH");

    CommandRun unknown =
        CommandRun.of("logs", "get", "logs-cli:jobs/never-opened", "--gateway", gateway);
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
            gateway);
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
            gateway);
    assertThat(badSpan.err()).contains("--span: must be START-END");
  }
}
