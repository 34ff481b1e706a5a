package dev.protomolt.lambda.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import dev.protomolt.engine.replay.ReplayPages;
import dev.protomolt.engine.replay.ReplayProgress;
import dev.protomolt.lambda.EventHandler;
import dev.protomolt.lambda.EventJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.Objects;

/**
 * {@code replay-page}: {@code {"state": {request, plan, progress}, "execution_arn"}} runs one page
 * of the replay ({@link ReplayPages}) and replies with the state after it, whose {@code
 * progress.next} the state machine's Choice reads.
 */
public final class ReplayPageHandler implements EventHandler {

  public static final String NAME = "replay-page";

  private final EventJson json = new EventJson(NAME);
  private final ReplayPages pages;

  public ReplayPageHandler(ReplayPages pages) {
    this.pages = Objects.requireNonNull(pages, "pages");
  }

  @Override
  public void handle(InputStream event, OutputStream reply) throws IOException {
    JsonNode wrapper = json.object(event);
    String executionArn = json.text(wrapper, "", "execution_arn");
    JsonNode state = json.objectField(wrapper, "", "state");
    JsonNode request = json.objectField(state, "state", "request");
    var plan = ReplayStateJson.plan(json.objectField(state, "state", "plan"));
    ReplayProgress progress;
    try {
      progress =
          pages.next(
              ReplayStateJson.input(request),
              plan,
              ReplayStateJson.progress(json.objectField(state, "state", "progress")),
              executionArn);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("replay page interrupted while pacing its starts");
    }
    EventJson.write(reply, ReplayStateJson.state(request, plan, progress));
  }
}
