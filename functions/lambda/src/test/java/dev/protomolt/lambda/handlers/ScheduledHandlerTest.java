package dev.protomolt.lambda.handlers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.lambda.EventJson;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ScheduledHandlerTest {

  private final AtomicInteger runs = new AtomicInteger();
  private final ScheduledHandler handler =
      new ScheduledHandler(
          "retention",
          () -> {
            var out = EventJson.reply();
            out.put("run", runs.incrementAndGet());
            return out;
          });

  @Test
  void anEmptyObjectFromEventBridgeSchedulerRunsTheServiceOnce() {
    assertThat(handler.handleText("{}")).isEqualTo("{\"run\":1}");
    assertThat(runs).hasValue(1);
  }

  @Test
  void aSchedulerSourcedScheduledEventRunsTheService() {
    handler.handleText(
        "{\"detail-type\":\"Scheduled Event\",\"source\":\"aws.scheduler\",\"detail\":{}}");
    assertThat(runs).hasValue(1);
  }

  @Test
  void anyOtherEventIsRefusedBeforeTheServiceRuns() {
    assertThatThrownBy(
            () -> handler.handleText("{\"detail-type\":\"Scheduled Event\",\"source\":\"aws.s3\"}"))
        .hasMessage("retention: source must be aws.events or aws.scheduler, was 'aws.s3'");
    assertThatThrownBy(() -> handler.handleText("{\"Records\":[]}"))
        .hasMessage("retention: detail-type must be a non-blank string");
    assertThatThrownBy(() -> handler.handleText("not json"))
        .hasMessageStartingWith("retention: the event must be JSON");
    assertThat(runs).hasValue(0);
  }
}
