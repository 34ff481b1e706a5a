package dev.protomolt.cli;

import com.google.protobuf.Timestamp;
import dev.protomolt.engine.activation.SfnStateMachines;
import dev.protomolt.engine.graphs.PostgresGraphStore;
import dev.protomolt.engine.replay.ReplayRefused;
import dev.protomolt.engine.replay.ReplayReport;
import dev.protomolt.engine.replay.ReplayRequest;
import dev.protomolt.engine.replay.ReplayService;
import dev.protomolt.proto.repository.v1.StreamDocumentsForReplayRequest;
import dev.protomolt.repository.replay.ReplayQuery;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code protomolt replay}: runs stored documents through a graph version again, through the
 * engine's {@link ReplayService} over the running platform's database and Step Functions endpoint
 * (decisions 0964, 0990). The candidates are counted first (the query reads no object), so the
 * progress bar knows its total.
 */
@Command(
    name = "replay",
    mixinStandardHelpOptions = true,
    description = "Start stored documents again on a graph version of the running platform.")
final class ReplayCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin DataOption data;

  @Option(names = "--account", required = true, paramLabel = "A")
  String account;

  @Option(names = "--graph", required = true, paramLabel = "G")
  String graph;

  @Option(
      names = "--version",
      paramLabel = "N",
      description = "The graph version to run (default: the active one when the replay starts).")
  Long version;

  @Option(names = "--datasource", paramLabel = "D")
  String datasource;

  @Option(names = "--doc", paramLabel = "ID", description = "A document id (repeatable).")
  List<String> docs;

  @Option(names = "--crawl", paramLabel = "C")
  String crawl;

  @Option(
      names = "--modified-after",
      paramLabel = "T",
      description = "ISO-8601 instant, exclusive.")
  String modifiedAfter;

  @Option(
      names = "--modified-before",
      paramLabel = "T",
      description = "ISO-8601 instant, exclusive.")
  String modifiedBefore;

  @Option(
      names = "--replay-id",
      paramLabel = "ID",
      description = "Names the replay; the same id converges (default: derived from the request).")
  String replayId;

  @Override
  public Integer call() {
    StreamDocumentsForReplayRequest.Builder selectors =
        StreamDocumentsForReplayRequest.newBuilder().setAccountId(account);
    if (datasource != null) {
      selectors.setDatasourceId(datasource);
    }
    if (docs != null) {
      selectors.addAllDocIds(docs);
    }
    if (crawl != null) {
      selectors.setCrawlId(crawl);
    }
    if (modifiedAfter != null) {
      selectors.setModifiedAfter(timestamp("--modified-after", modifiedAfter));
    }
    if (modifiedBefore != null) {
      selectors.setModifiedBefore(timestamp("--modified-before", modifiedBefore));
    }
    ReplayRequest request =
        new ReplayRequest(
            replayId,
            selectors.build(),
            graph,
            version == null ? OptionalLong.empty() : OptionalLong.of(version));
    PrintWriter out = spec.commandLine().getOut();
    try (LocalClients clients = new LocalClients(LocalEnvironment.expected(data.settings()))) {
      // Proves the database answers, with the message that says how to start the platform.
      clients.datasourceOwner(datasource == null ? "" : datasource);
      ReplayQuery query = new ReplayQuery(clients.db());
      ProgressLine[] progress = new ProgressLine[1];
      ReplayService replay =
          new ReplayService(
              (r, sink) -> {
                long[] total = {0};
                query.stream(r, c -> total[0]++);
                progress[0] = ProgressLine.onConsole(out, "replaying", total[0]);
                query.stream(r, sink);
              },
              new PostgresGraphStore(clients.db()),
              new SfnStateMachines(clients.sfn(), LocalPlatform.ROLE),
              Clock.systemUTC());
      ReplayReport report;
      try {
        report = replay.replay(request, soFar -> progress[0].update(soFar.candidates()));
      } catch (ReplayRefused e) {
        throw CommandFailure.refused(
            flagOf(e.field())
                + e.getMessage().substring(e.field().length())
                + "; nothing was started");
      }
      if (progress[0] != null) {
        progress[0].finish(report.candidates());
      }
      out.printf(
          "replay %s of graph '%s' version %d (%s)%n",
          report.replayId(), report.graphId(), report.graphVersion(), report.versionArn());
      out.printf(
          "candidates %d, started %d, already started %d, skipped %d%n",
          report.candidates(), report.started(), report.alreadyStarted(), report.skippedTotal());
      report.skipped().forEach((verdict, n) -> out.printf("  skipped %s: %d%n", verdict, n));
      out.flush();
      return 0;
    }
  }

  private Timestamp timestamp(String flag, String text) {
    try {
      Instant at = Instant.parse(text);
      return Timestamp.newBuilder().setSeconds(at.getEpochSecond()).setNanos(at.getNano()).build();
    } catch (DateTimeParseException e) {
      throw new ParameterException(
          spec.commandLine(),
          flag
              + ": must be an ISO-8601 instant such as"
              + " 2026-03-01T12:00:00Z, got '"
              + text
              + "'");
    }
  }

  /** The flag a refused request field came from, so the message names what the user typed. */
  private static String flagOf(String field) {
    return switch (field) {
      case "graph_id" -> "--graph";
      case "version" -> "--version";
      case "selectors.account_id" -> "--account";
      case "selectors.modified_before" -> "--modified-before";
      case "selectors.modified_after" -> "--modified-after";
      default -> field.startsWith("selectors.doc_ids") ? "--doc" : field;
    };
  }
}
