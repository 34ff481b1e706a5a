package dev.protomolt.cli;

import dev.protomolt.proto.repository.v1.AnnotatePartRequest;
import dev.protomolt.proto.repository.v1.DocumentLogServiceGrpc;
import dev.protomolt.proto.repository.v1.DocumentLogServiceGrpc.DocumentLogServiceBlockingStub;
import dev.protomolt.proto.repository.v1.GetLogRequest;
import dev.protomolt.proto.repository.v1.GetLogResponse;
import dev.protomolt.proto.repository.v1.LogPart;
import dev.protomolt.proto.repository.v1.LogRef;
import dev.protomolt.proto.repository.v1.PartAnnotation;
import dev.protomolt.proto.repository.v1.PartSpan;
import dev.protomolt.proto.repository.v1.SearchLogsRequest;
import io.grpc.ManagedChannel;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code protomolt logs tail|get|search|annotate}: document logs (module work-unit logs, job logs)
 * through the gateway's {@code DocumentLogService}. A log is named {@code COLLECTION:PATH}, the
 * form {@code search} prints, so a hit can be pasted into {@code get} or {@code annotate}.
 */
@Command(
    name = "logs",
    mixinStandardHelpOptions = true,
    description = "Read, follow, search and annotate document logs on the running platform.",
    subcommands = {
      LogsCommand.Tail.class,
      LogsCommand.Get.class,
      LogsCommand.Search.class,
      LogsCommand.Annotate.class
    })
final class LogsCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** The channel plumbing every subcommand shares. */
  abstract static class LogsCall implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Mixin GatewayOption gateway;

    @Override
    public final Integer call() {
      ManagedChannel channel = gateway.open();
      try {
        PrintWriter out = spec.commandLine().getOut();
        int status = run(DocumentLogServiceGrpc.newBlockingStub(channel), out);
        out.flush();
        return status;
      } finally {
        channel.shutdownNow();
      }
    }

    abstract int run(DocumentLogServiceBlockingStub logs, PrintWriter out);

    static DocumentLogServiceBlockingStub timed(DocumentLogServiceBlockingStub logs) {
      return logs.withDeadlineAfter(30, TimeUnit.SECONDS);
    }

    /** {@code COLLECTION:PATH}, refused naming the argument when it has no colon. */
    static LogRef ref(String name) {
      int colon = name.indexOf(':');
      if (colon < 1 || colon == name.length() - 1) {
        throw CommandFailure.refused(
            "LOG: must be COLLECTION:PATH, e.g. acme:logs/work-units/<id>, got '" + name + "'");
      }
      return LogRef.newBuilder()
          .setCollection(name.substring(0, colon))
          .setPath(name.substring(colon + 1))
          .build();
    }

    static String name(LogRef ref) {
      return ref.getCollection() + ":" + ref.getPath();
    }
  }

  @Command(
      name = "get",
      mixinStandardHelpOptions = true,
      description = "Print a log's text as held so far, sealed or still being written.")
  static final class Get extends LogsCall {

    @Parameters(paramLabel = "LOG", description = "COLLECTION:PATH")
    String log;

    @Option(
        names = "--original",
        description =
            "Print the sealed log's stored original object (checked against its SHA-256)"
                + " instead of the text reassembled from its parts.")
    boolean original;

    @Override
    int run(DocumentLogServiceBlockingStub logs, PrintWriter out) {
      GetLogResponse got =
          gateway.call(
              "log '" + log + "'",
              () ->
                  timed(logs)
                      .getLog(
                          GetLogRequest.newBuilder()
                              .setLog(ref(log))
                              .setOriginal(original)
                              .build()));
      out.print(got.getText());
      spec.commandLine()
          .getErr()
          .printf(
              "%s: %d chars in %d parts, %s%n",
              log,
              got.getStatus().getLength(),
              got.getStatus().getPartsWritten(),
              got.getStatus().getSealed()
                  ? "sealed, sha256 "
                      + got.getStatus().getSha256()
                      + (got.getOriginal().isEmpty() ? "" : ", read from " + got.getOriginal())
                  : "still open");
      spec.commandLine().getErr().flush();
      return 0;
    }
  }

  @Command(
      name = "tail",
      mixinStandardHelpOptions = true,
      description = "Print a log's last lines; with --follow, keep printing until it is sealed.")
  static final class Tail extends LogsCall {

    @Parameters(paramLabel = "LOG", description = "COLLECTION:PATH")
    String log;

    @Option(
        names = {"-n", "--lines"},
        defaultValue = "20",
        paramLabel = "N",
        description = "Print the last N lines (default: ${DEFAULT-VALUE}).")
    int lines;

    @Option(
        names = {"-f", "--follow"},
        description = "Keep printing new text as it arrives, until the log is sealed.")
    boolean follow;

    @Override
    int run(DocumentLogServiceBlockingStub logs, PrintWriter out) {
      if (lines < 0) {
        throw CommandFailure.refused("--lines: must not be negative, got " + lines);
      }
      LogRef ref = ref(log);
      GetLogResponse got = fetch(logs, ref, 0);
      out.print(lastLines(got.getText(), lines));
      out.flush();
      long seen = got.getFromOffset() + got.getText().length();
      while (follow && !got.getStatus().getSealed()) {
        try {
          // A person is watching: a quarter second between polls is live enough and cheap.
          TimeUnit.MILLISECONDS.sleep(250);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
        got = fetch(logs, ref, seen);
        out.print(got.getText());
        out.flush();
        seen = got.getFromOffset() + got.getText().length();
      }
      return 0;
    }

    private GetLogResponse fetch(DocumentLogServiceBlockingStub logs, LogRef ref, long from) {
      return gateway.call(
          "log '" + log + "'",
          () ->
              timed(logs)
                  .getLog(GetLogRequest.newBuilder().setLog(ref).setFromOffset(from).build()));
    }

    /** The last {@code count} lines of {@code text}; a trailing partial line counts as one. */
    static String lastLines(String text, int count) {
      if (count == 0) {
        return "";
      }
      int at = text.endsWith("\n") ? text.length() - 1 : text.length();
      for (int i = 0; i < count; i++) {
        at = text.lastIndexOf('\n', at - 1);
        if (at < 0) {
          return text;
        }
      }
      return text.substring(at + 1);
    }
  }

  @Command(
      name = "search",
      mixinStandardHelpOptions = true,
      description = "Find log parts holding every word, in sealed logs and logs still written.")
  static final class Search extends LogsCall {

    @Parameters(arity = "1..*", paramLabel = "WORD")
    List<String> words;

    @Option(
        names = "--limit",
        defaultValue = "20",
        paramLabel = "N",
        description = "At most N parts (default: ${DEFAULT-VALUE}).")
    int limit;

    @Override
    int run(DocumentLogServiceBlockingStub logs, PrintWriter out) {
      if (limit < 1 || limit > 1000) {
        throw CommandFailure.refused("--limit: must be between 1 and 1000, got " + limit);
      }
      String query = String.join(" ", words);
      List<LogPart> hits =
          gateway.call(
              "search '" + query + "'",
              () ->
                  timed(logs)
                      .searchLogs(
                          SearchLogsRequest.newBuilder().setQuery(query).setLimit(limit).build())
                      .getHitsList());
      if (hits.isEmpty()) {
        out.println("no log part holds every word of '" + query + "'");
      }
      for (LogPart hit : hits) {
        out.printf(
            "%s part %d at %d: %s%n",
            name(hit.getLog()), hit.getIndex(), hit.getStart(), snippet(hit.getText(), words));
      }
      return 0;
    }

    /** The line of the part holding the first word, or the part's first line. */
    static String snippet(String text, List<String> words) {
      String lower = text.toLowerCase(Locale.ROOT);
      int at = lower.indexOf(words.getFirst().toLowerCase(Locale.ROOT));
      int from = at < 0 ? 0 : text.lastIndexOf('\n', at) + 1;
      int to = text.indexOf('\n', Math.max(from, at));
      String line = text.substring(from, to < 0 ? text.length() : to).strip();
      return line.length() > 160 ? line.substring(0, 157) + "..." : line;
    }
  }

  @Command(
      name = "annotate",
      mixinStandardHelpOptions = true,
      description = "Attach a note, a label (root-cause, flake, noise) or a finding to one part.")
  static final class Annotate extends LogsCall {

    @Parameters(paramLabel = "LOG", description = "COLLECTION:PATH")
    String log;

    @Option(names = "--part", required = true, paramLabel = "N", description = "Part index.")
    int part;

    @Option(
        names = "--kind",
        defaultValue = "note",
        paramLabel = "K",
        description = "note, label or finding (default: ${DEFAULT-VALUE}).")
    String kind;

    @Option(names = "--author", required = true, paramLabel = "WHO")
    String author;

    @Option(
        names = "--body",
        required = true,
        paramLabel = "TEXT",
        description = "The note or finding, or the label's name.")
    String body;

    @Option(
        names = "--span",
        paramLabel = "START-END",
        description = "Chars of the part the annotation is about (default: the whole part).")
    String span;

    @Override
    int run(DocumentLogServiceBlockingStub logs, PrintWriter out) {
      AnnotatePartRequest.Builder request =
          AnnotatePartRequest.newBuilder()
              .setLog(ref(log))
              .setPartIndex(part)
              .setKind(kind)
              .setAuthor(author)
              .setBody(body);
      if (span != null) {
        request.setSpan(span(span));
      }
      PartAnnotation added =
          gateway.call(
              "annotating part " + part + " of log '" + log + "'",
              () -> timed(logs).annotatePart(request.build()));
      out.printf(
          "%s %s on %s part %d%n", added.getKind(), added.getId(), log, added.getPartIndex());
      return 0;
    }

    static PartSpan span(String value) {
      int dash = value.indexOf('-');
      try {
        return PartSpan.newBuilder()
            .setStart(Integer.parseInt(value.substring(0, dash)))
            .setEnd(Integer.parseInt(value.substring(dash + 1)))
            .build();
      } catch (RuntimeException e) {
        throw CommandFailure.refused(
            "--span: must be START-END, two char offsets inside the part, got '" + value + "'");
      }
    }
  }
}
