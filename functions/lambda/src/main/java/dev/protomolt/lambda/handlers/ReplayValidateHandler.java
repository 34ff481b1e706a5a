package dev.protomolt.lambda.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import dev.protomolt.engine.replay.ReplayPlan;
import dev.protomolt.engine.replay.ReplayProgress;
import dev.protomolt.engine.replay.ReplayValidation;
import dev.protomolt.lambda.EventHandler;
import dev.protomolt.lambda.EventJson;
import dev.protomolt.repository.replay.ReplayQuery;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;

/**
 * {@code replay-validate}, the replay state machine's first state: {@code {"input": <the
 * execution's input>, "execution_arn"}}. A fresh input is validated ({@link ReplayValidation});
 * a refusal throws {@code ReplayRefused} naming the field, which fails the execution in this
 * state. An input {@code {"continuation": <state>}} is the same run continuing as a new
 * execution: its state is passed on with a fresh per-execution page count.
 *
 * <p>Reply: {@code {request, plan, progress}}.
 */
public final class ReplayValidateHandler implements EventHandler {

  public static final String NAME = "replay-validate";

  private final EventJson json = new EventJson(NAME);
  private final ReplayValidation validation;

  public ReplayValidateHandler(ReplayValidation validation) {
    this.validation = Objects.requireNonNull(validation, "validation");
  }

  @Override
  public void handle(InputStream event, OutputStream reply) throws IOException {
    JsonNode wrapper = json.object(event);
    String executionArn = json.text(wrapper, "", "execution_arn");
    JsonNode input = json.objectField(wrapper, "", "input");
    JsonNode continuation = input.get("continuation");
    if (continuation != null && input.size() == 1) {
      JsonNode state = json.objectField(input, "input", "continuation");
      ReplayStateJson.input(state.path("request"));
      EventJson.write(
          reply,
          ReplayStateJson.state(
              state.path("request"),
              ReplayStateJson.plan(json.objectField(state, "input.continuation", "plan")),
              ReplayStateJson.progress(json.objectField(state, "input.continuation", "progress"))
                  .continued()));
      return;
    }
    ReplayPlan plan = validation.validate(ReplayStateJson.input(input), executionArn);
    EventJson.write(
        reply,
        ReplayStateJson.state(input, plan, ReplayProgress.start(ReplayQuery.Cursor.START.text())));
  }
}
