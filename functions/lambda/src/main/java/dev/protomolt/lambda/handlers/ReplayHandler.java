package dev.protomolt.lambda.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.protomolt.engine.replay.ReplayReport;
import dev.protomolt.engine.replay.ReplayRequest;
import dev.protomolt.engine.replay.ReplayService;
import dev.protomolt.lambda.EventHandler;
import dev.protomolt.lambda.EventJson;
import dev.protomolt.proto.repository.v1.StreamDocumentsForReplayRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * {@code replay}: {@code {"replayId"?, "graphId", "version"?, "selectors": <StreamDocumentsForReplayRequest
 * as proto JSON>}} runs one replay through {@link ReplayService} to its end (decision 0990). A
 * request the service refuses throws its {@code ReplayRefused} naming the field, unrenamed.
 *
 * <p>Reply: {@code {replayId, graphId, graphVersion, versionArn, candidates, started, alreadyStarted,
 * skipped: {verdict: count}}}.
 */
public final class ReplayHandler implements EventHandler {

  public static final String NAME = "replay";

  private final EventJson json = new EventJson(NAME);
  private final ReplayService replay;

  public ReplayHandler(ReplayService replay) {
    this.replay = Objects.requireNonNull(replay, "replay");
  }

  @Override
  public void handle(InputStream event, OutputStream reply) throws IOException {
    JsonNode request = json.object(event);
    String graphId = json.text(request, "", "graphId");
    OptionalLong version =
        request.hasNonNull("version")
            ? OptionalLong.of(json.integer(request, "", "version", 1))
            : OptionalLong.empty();
    JsonNode selectorsJson = json.objectField(request, "", "selectors");
    StreamDocumentsForReplayRequest.Builder selectors =
        StreamDocumentsForReplayRequest.newBuilder();
    try {
      JsonFormat.parser().merge(selectorsJson.toString(), selectors);
    } catch (InvalidProtocolBufferException e) {
      throw json.refuse(
          "selectors",
          "must be a StreamDocumentsForReplayRequest in proto JSON: " + e.getMessage(),
          e);
    }
    ReplayReport report =
        replay.replay(
            new ReplayRequest(
                json.optionalText(request, "", "replayId"), selectors.build(), graphId, version));
    ObjectNode out = EventJson.reply();
    out.put("replayId", report.replayId());
    out.put("graphId", report.graphId());
    out.put("graphVersion", report.graphVersion());
    out.put("versionArn", report.versionArn());
    out.put("candidates", report.candidates());
    out.put("started", report.started());
    out.put("alreadyStarted", report.alreadyStarted());
    ObjectNode skipped = out.putObject("skipped");
    report.skipped().forEach(skipped::put);
    EventJson.write(reply, out);
  }
}
