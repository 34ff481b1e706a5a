package dev.protomolt.lambda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.amazonaws.services.lambda.runtime.events.KafkaEvent;
import com.amazonaws.services.lambda.runtime.events.S3Event;
import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import org.junit.jupiter.api.Test;

/** AWS's event types read with AWS's own serializers, and their refusals. */
class AwsEventsTest {

  private final EventJson json = new EventJson("intake");

  @Test
  void theFixturesReadIntoAwsTypes() throws Exception {
    S3Event s3 =
        AwsEvents.read(
            json,
            EventJson.MAPPER.readTree(Fixtures.text("s3-object-created-put.json")),
            S3Event.class,
            "an S3 event notification");
    assertThat(s3.getRecords()).singleElement();
    assertThat(s3.getRecords().getFirst().getS3().getObject().getUrlDecodedKey())
        .isEqualTo("acme/acme-uploads/reports/quarterly report (final).txt");

    ScheduledEvent tick =
        AwsEvents.read(
            json,
            EventJson.MAPPER.readTree(
                "{\"version\":\"0\",\"id\":\"1\",\"detail-type\":\"Scheduled Event\","
                    + "\"source\":\"aws.events\",\"time\":\"2026-03-01T12:00:00Z\",\"detail\":{}}"),
            ScheduledEvent.class,
            "a scheduled event");
    assertThat(tick.getDetailType()).isEqualTo("Scheduled Event");
    assertThat(tick.getTime().getYear()).isEqualTo(2026);
  }

  @Test
  void aValueOfTheWrongTypeIsRefusedNamingItsPathAndTheRule() throws Exception {
    assertThatThrownBy(
            () ->
                AwsEvents.read(
                    json,
                    EventJson.MAPPER.readTree(
                        "{\"eventSource\":\"aws:kafka\",\"records\":{\"t-0\":"
                            + "[{\"topic\":\"t\",\"partition\":\"first\",\"value\":\"\"}]}}"),
                    KafkaEvent.class,
                    "an MSK event"))
        .isInstanceOf(InvalidEventException.class)
        .hasMessageStartingWith(
            "intake: records[\"t-0\"][0].partition must be an MSK event: Cannot deserialize value"
                + " of type `int` from String \"first\"");
  }

  @Test
  void aReferenceChainBecomesTheEventsOwnPathSyntax() {
    assertThat(
            AwsEvents.path(
                "boom (through reference chain: x.KafkaEvent[\"records\"]->java.util.LinkedHashMap"
                    + "[\"storage-purge-3\"]->java.util.ArrayList[2]->x.KafkaEvent$KafkaEventRecord"
                    + "[\"offset\"])"))
        .isEqualTo("records[\"storage-purge-3\"][2].offset");
    assertThat(AwsEvents.path("no chain at all")).isEqualTo("the event");
  }
}
