package dev.protomolt.lambda.handlers;

import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import com.fasterxml.jackson.databind.JsonNode;
import dev.protomolt.lambda.AwsEvents;
import dev.protomolt.lambda.EventHandler;
import dev.protomolt.lambda.EventJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * {@code reconciler} and {@code retention}: started on a schedule. The event carries no work, only
 * the fact of the tick, so the handler accepts an EventBridge {@code Scheduled Event} (what a rule
 * sends, read as AWS's {@link ScheduledEvent}) or an empty object (what EventBridge Scheduler sends when its target has no input) and
 * refuses anything else, so a function wired to the wrong trigger says so instead of sweeping.
 */
public final class ScheduledHandler implements EventHandler {

  private final EventJson json;
  private final Supplier<JsonNode> service;

  /**
   * @param function the handler name
   * @param service one application service run, returning its report
   */
  public ScheduledHandler(String function, Supplier<JsonNode> service) {
    this.json = new EventJson(Objects.requireNonNull(function, "function"));
    this.service = Objects.requireNonNull(service, "service");
  }

  @Override
  public void handle(InputStream event, OutputStream reply) throws IOException {
    JsonNode tick = json.object(event);
    if (!tick.isEmpty()) {
      ScheduledEvent scheduled =
          AwsEvents.read(json, tick, ScheduledEvent.class, "an EventBridge scheduled event");
      String detailType = scheduled.getDetailType();
      if (detailType == null || detailType.isBlank()) {
        throw json.refuse("detail-type", "must be a non-blank string");
      }
      if (!detailType.equals("Scheduled Event")) {
        throw json.refuse(
            "detail-type",
            "must be 'Scheduled Event' (this function runs on a schedule),"
                + " was '"
                + detailType
                + "'");
      }
      String source = scheduled.getSource();
      if (source == null || source.isBlank()) {
        throw json.refuse("source", "must be a non-blank string");
      }
      if (!source.equals("aws.events") && !source.equals("aws.scheduler")) {
        throw json.refuse("source", "must be aws.events or aws.scheduler, was '" + source + "'");
      }
    }
    EventJson.write(reply, service.get());
  }
}
