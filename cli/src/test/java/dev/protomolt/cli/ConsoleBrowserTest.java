package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.testsupport.Eventually;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The console in a real browser (Debian's Chromium, driven by playwright-core from the console's
 * own pinned npm packages) on a local platform of its own: build a three-node graph by dragging from
 * the palette, see the CEL violation on an edge, fix it, deploy; then an upload, watched in the
 * run viewer until it reaches SINK_REACHED, its journey and its replay; then a version 2 that
 * dead-letters the next upload, that dead letter reprocessed, the two versions' diff and a
 * rollback to version 1, after which uploads are admitted to version 1 again. It runs on the
 * {@link SharedPlatform} under an account and graph of its own. The scenario is {@code
 * console/test/browser/console-scenario.mjs}; its screenshots go to {@code target/console-shots}
 * (or {@code -Dconsole.shots=DIR}, which is how {@code docs/console/} is refreshed).
 */
@ExtendWith(SharedPlatform.Resolver.class)
class ConsoleBrowserTest {

  static final String ACCOUNT = "console";
  static final String DATASOURCE = "console-docs";
  static final String GRAPH = "console-designed";
  static final Path CHROMIUM = Path.of("/usr/bin/chromium");

  static LocalPlatform platform;

  @BeforeAll
  static void provision(SharedPlatform shared) {
    platform = shared.platform();
    platform.provisionAccount(ACCOUNT, DATASOURCE);
  }

  @Test
  void aGraphDesignedInTheBrowserRunsAnUploadToItsSink() throws Exception {
    assertThat(CHROMIUM)
        .as("the browser test needs Debian's chromium: apt-get install -y chromium")
        .isExecutable();
    Path shots = Path.of(System.getProperty("console.shots", "target/console-shots"));
    String url = platform.consoleUrl().toString();

    scenario("design", url, GRAPH, shots);

    IntakeUploads.upload(
        platform,
        ACCOUNT,
        DATASOURCE,
        Map.of(
            "notes/tides.txt",
            ("Tide tables\n\nHigh water at the harbour mouth comes forty minutes after the"
                    + " moon crosses the meridian.\n")
                .getBytes(StandardCharsets.UTF_8)));
    LocalPlatform.Admission admitted =
        Eventually.value(
            "the upload admitted to the graph designed in the browser",
            () ->
                platform.admissions(ACCOUNT).stream()
                    .filter(a -> a.graphId().equals(GRAPH) && !a.executionArn().isEmpty())
                    .findFirst());

    // The watch phase ends by deploying version 2, whose routing fails at run time.
    scenario("watch", url, admitted.docId(), shots);
    assertThat(shots.resolve("designer.png")).isNotEmptyFile();
    assertThat(shots.resolve("run-viewer.png")).isNotEmptyFile();

    LocalPlatform.Admission failing = uploadAndAwaitAdmission("notes/soundings.txt", 2);
    scenario("recover", url, failing.docId(), shots);
    assertThat(shots.resolve("designer-versions.png")).isNotEmptyFile();

    // The rollback is real: the next upload is admitted to version 1 again.
    uploadAndAwaitAdmission("notes/currents.txt", 1);
  }

  /** Uploads one text and waits until it is admitted to the given version of the graph. */
  private static LocalPlatform.Admission uploadAndAwaitAdmission(String key, long version) {
    String docId =
        IntakeUploads.uploadOne(
            platform,
            ACCOUNT,
            DATASOURCE,
            key,
            "Harbour notes\n\nThe ebb runs hardest two hours after high water at the bar.\n");
    return Eventually.value(
        "the upload of " + key + " admitted to version " + version,
        () ->
            platform.admissions(ACCOUNT).stream()
                .filter(
                    a ->
                        a.graphId().equals(GRAPH)
                            && a.graphVersion() == version
                            && a.docId().equals(docId)
                            && !a.executionArn().isEmpty())
                .findFirst());
  }

  /** Runs one phase of the node scenario; its output is the failure message when it fails. */
  private static void scenario(String phase, String url, String subject, Path shots)
      throws Exception {
    Path console = Path.of("..", "console").toAbsolutePath().normalize();
    File log = Files.createTempFile("console-scenario-" + phase + "-", ".log").toFile();
    ProcessBuilder node =
        new ProcessBuilder(
                List.of(
                    "node",
                    "test/browser/console-scenario.mjs",
                    phase,
                    url,
                    ACCOUNT,
                    DATASOURCE,
                    subject,
                    shots.toAbsolutePath().toString(),
                    GRAPH))
            .directory(console.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log);
    node.environment().put("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1");
    Process run = node.start();
    boolean exited = run.waitFor(3, TimeUnit.MINUTES);
    if (!exited) {
      run.destroyForcibly();
    }
    String output = Files.readString(log.toPath(), StandardCharsets.UTF_8);
    assertThat(exited).as("the %s phase did not finish in 3 minutes:%n%s", phase, output).isTrue();
    assertThat(run.exitValue()).as("the %s phase failed:%n%s", phase, output).isZero();
    assertThat(output).contains("phase " + phase + ": passed");
  }
}
