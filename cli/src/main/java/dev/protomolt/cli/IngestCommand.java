package dev.protomolt.cli;

import dev.protomolt.core.orchestration.StateMachineNames;
import io.grpc.ManagedChannel;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * {@code protomolt ingest}: uploads files to the intake bucket through S3, exactly as {@code aws s3
 * cp} would, so the upload travels the same notification path as a user's; then optionally waits
 * for every document's terminal disposition.
 */
@Command(
    name = "ingest",
    mixinStandardHelpOptions = true,
    description = "Upload files to an account's datasource on the running platform.")
final class IngestCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin DataOption data;

  @Mixin GatewayOption gateway;

  @Parameters(
      arity = "1..*",
      paramLabel = "PATH",
      description = "Files, or folders with --recursive.")
  List<Path> paths;

  @Option(names = "--account", required = true, paramLabel = "A")
  String account;

  @Option(names = "--datasource", required = true, paramLabel = "D")
  String datasource;

  @Option(
      names = {"-r", "--recursive"},
      description = "Upload every file below each folder.")
  boolean recursive;

  @Option(
      names = "--wait",
      description = "Wait until every document reached a terminal disposition.")
  boolean await;

  @Option(
      names = "--timeout-seconds",
      defaultValue = "300",
      paramLabel = "N",
      description = "How long --wait waits (default: ${DEFAULT-VALUE}).")
  long timeoutSeconds;

  @Override
  public Integer call() throws InterruptedException {
    if (timeoutSeconds < 1) {
      throw new ParameterException(
          spec.commandLine(), "--timeout-seconds: must be at least 1, got " + timeoutSeconds);
    }
    try {
      LocalPlatform.requireAccountId(account);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--account: " + e.getMessage());
    }
    if (datasource.isBlank() || datasource.contains("/")) {
      throw new ParameterException(
          spec.commandLine(),
          "--datasource: must be non-blank and contain no '/', got '" + datasource + "'");
    }
    IngestPlan plan = IngestPlan.of(paths, recursive);
    PrintWriter out = spec.commandLine().getOut();
    ManagedChannel channel = gateway.open();
    try (LocalClients clients = new LocalClients(LocalEnvironment.expected(data.settings()))) {
      PlatformRuns runs = new PlatformRuns(channel);
      String owner =
          gateway
              .call("datasource '" + datasource + "'", () -> runs.datasourceOwner(datasource))
              .orElseThrow(
                  () ->
                      CommandFailure.refused(
                          "--datasource: '"
                              + datasource
                              + "' is not provisioned, so intake would not notice the"
                              + " uploads; provision it with `protomolt up --data "
                              + data.data
                              + " --account "
                              + account
                              + ":"
                              + datasource
                              + "`; nothing was uploaded"));
      if (!owner.equals(account)) {
        throw CommandFailure.refused(
            "--datasource: '"
                + datasource
                + "' belongs to account '"
                + owner
                + "', not '"
                + account
                + "'; nothing was uploaded");
      }
      Instant started = Instant.now();
      Map<String, String> docIdByPath = upload(clients, plan, out);
      if (!await) {
        docIdByPath.forEach((path, docId) -> out.println("  " + docId + "  " + path));
        out.flush();
        return 0;
      }
      return waitFor(clients, runs, docIdByPath, started, out);
    } finally {
      channel.shutdownNow();
    }
  }

  private Map<String, String> upload(LocalClients clients, IngestPlan plan, PrintWriter out)
      throws InterruptedException {
    Map<String, String> docIdByPath = new LinkedHashMap<>();
    ProgressLine progress = ProgressLine.onConsole(out, "uploading ", plan.items().size());
    int done = 0;
    for (IngestPlan.Item item : plan.items()) {
      String key = account + "/" + datasource + "/" + item.path();
      try {
        put(clients, key, item);
      } catch (SdkClientException e) {
        progress.finish(done);
        if (refusedConnection(e)) {
          throw new CommandFailure(
              CommandFailure.UNREACHABLE,
              "no local cloud S3 at "
                  + clients.s3Endpoint()
                  + " — start it with `protomolt up --data "
                  + data.data
                  + "`; "
                  + done
                  + " of "
                  + plan.items().size()
                  + " files were uploaded before that");
        }
        throw new CommandFailure(
            CommandFailure.UNREACHABLE,
            "cannot upload "
                + item.file()
                + " to the local cloud's S3 ("
                + causes(e)
                + "); "
                + done
                + " of "
                + plan.items().size()
                + " files were uploaded — run the same ingest again:"
                + " uploading a file again is harmless");
      } catch (S3Exception e) {
        progress.finish(done);
        throw CommandFailure.refused(
            "S3 refused "
                + item.file()
                + " as s3://"
                + LocalPlatform.INTAKE_BUCKET
                + "/"
                + key
                + ": "
                + e.awsErrorDetails().errorCode()
                + " "
                + e.awsErrorDetails().errorMessage()
                + "; "
                + done
                + " of "
                + plan.items().size()
                + " files were uploaded");
      }
      // Intake names the document by bucket and key, so the id is known before it is admitted.
      docIdByPath.put(
          item.path(), StateMachineNames.hashOf("intake", LocalPlatform.INTAKE_BUCKET, key));
      progress.update(++done);
    }
    progress.finish(done);
    out.printf(
        "uploaded %d file%s (%d bytes) to s3://%s/%s/%s/%n",
        done, done == 1 ? "" : "s", plan.bytes(), LocalPlatform.INTAKE_BUCKET, account, datasource);
    out.flush();
    return docIdByPath;
  }

  /**
   * One upload. A transport failure that is not a refused connection is tried again after a pause,
   * up to {@link #UPLOAD_ROUNDS} rounds of the SDK's own retries: putting the same object again is
   * harmless, and the local S3 occasionally drops a connection mid-request on a busy machine.
   */
  private static void put(LocalClients clients, String key, IngestPlan.Item item)
      throws InterruptedException {
    for (int round = 1; ; round++) {
      try {
        clients
            .s3()
            .putObject(
                b -> b.bucket(LocalPlatform.INTAKE_BUCKET).key(key),
                RequestBody.fromFile(item.file()));
        return;
      } catch (SdkClientException e) {
        if (round == UPLOAD_ROUNDS || refusedConnection(e)) {
          throw e;
        }
        Thread.sleep(250L * round);
      }
    }
  }

  private static final int UPLOAD_ROUNDS = 3;

  private static String causes(Throwable e) {
    StringBuilder text = new StringBuilder(String.valueOf(e.getMessage()));
    for (Throwable t = e.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
      text.append("; caused by ")
          .append(t.getClass().getSimpleName())
          .append(": ")
          .append(t.getMessage());
    }
    return text.toString();
  }

  private static boolean refusedConnection(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ConnectException) {
        return true;
      }
    }
    return false;
  }

  /** How often `--wait` counts the documents waiting for a module. */
  private static final Duration QUEUED_EVERY = Duration.ofSeconds(2);

  /** "· N queued (waiting for a module)", or nothing when none waits. */
  static String queuedNote(int queued) {
    return queued == 0 ? "" : "· " + queued + " queued (waiting for a module)";
  }

  private int waitFor(
      LocalClients clients,
      PlatformRuns runs,
      Map<String, String> docIdByPath,
      Instant since,
      PrintWriter out)
      throws InterruptedException {
    DispositionWatch watch =
        new DispositionWatch(
            docIds -> gateway.call("admissions", () -> runs.admissions(account, docIds, since)),
            clients.sfn());
    ProgressLine progress = ProgressLine.onConsole(out, "processing", docIdByPath.size());
    long deadline = System.nanoTime() + Duration.ofSeconds(timeoutSeconds).toNanos();
    Map<String, List<DispositionWatch.Ending>> done = Map.of();
    String queued = "";
    long queuedAt = 0;
    while (true) {
      done = watch.terminal(docIdByPath.values());
      boolean last = done.size() == docIdByPath.size() || System.nanoTime() > deadline;
      // Counting the queue reads each running execution's newest event: every 2 s, not every poll.
      if (last || System.nanoTime() - queuedAt >= QUEUED_EVERY.toNanos()) {
        queued = queuedNote(watch.queued());
        queuedAt = System.nanoTime();
      }
      if (last) {
        break;
      }
      progress.update(done.size(), queued);
      Thread.sleep(200);
    }
    progress.finish(done.size(), queued);
    Map<String, Integer> counts = new TreeMap<>();
    for (Map.Entry<String, String> e : docIdByPath.entrySet()) {
      List<DispositionWatch.Ending> endings = done.get(e.getValue());
      String disposition = endings == null ? "PENDING" : DispositionWatch.describe(endings);
      counts.merge(disposition, 1, Integer::sum);
      out.printf(
          "  %s  %-40s %s%s%n",
          e.getValue(), e.getKey(), disposition, DispositionWatch.memoNote(endings));
    }
    out.println("dispositions: " + counts);
    NodeDispositions.of(done.values(), docIdByPath.size() - done.size()).print(out);
    if (done.size() < docIdByPath.size()) {
      out.printf(
          "%d of %d documents had no terminal disposition after %d s; `protomolt ingest --wait"
              + " --timeout-seconds N` waits longer, `aws stepfunctions list-executions` shows what"
              + " is still running%n",
          docIdByPath.size() - done.size(), docIdByPath.size(), timeoutSeconds);
    }
    out.flush();
    return done.size() == docIdByPath.size() ? 0 : CommandFailure.REFUSED;
  }
}
