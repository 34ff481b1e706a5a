package dev.protomolt.lambda.handlers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.protomolt.lambda.EventJson;
import dev.protomolt.lambda.InvalidEventException;
import dev.protomolt.lambda.handlers.KafkaBatch.KafkaRecord;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

class KafkaBatchTest {

  private final EventJson json = new EventJson("purge");

  private static JsonNode event(String records) throws Exception {
    return EventJson.MAPPER.readTree("{\"eventSource\":\"aws:kafka\",\"records\":" + records + "}");
  }

  @Test
  void recordsComeOutGroupByGroupInOffsetOrderWithTheirKeysAndValuesDecoded() throws Exception {
    List<KafkaRecord> records =
        KafkaBatch.records(
            json,
            event(
                "{\"storage-purge-1\":[{\"topic\":\"storage-purge\",\"partition\":1,\"offset\":7,\"key\":\"YQ==\",\"value\":\"AQI=\"},"
                    + "{\"topic\":\"storage-purge\",\"partition\":1,\"offset\":8,\"value\":\"Aw==\"}],"
                    + "\"storage-purge-0\":[{\"topic\":\"storage-purge\",\"partition\":0,\"offset\":3,\"value\":\"\"}]}"));

    assertThat(records)
        .extracting(KafkaRecord::partition, KafkaRecord::offset)
        .containsExactly(Tuple.tuple(1, 7L), Tuple.tuple(1, 8L), Tuple.tuple(0, 3L));
    assertThat(new String(records.get(0).key(), StandardCharsets.UTF_8)).isEqualTo("a");
    assertThat(records.get(0).value()).containsExactly(1, 2);
    // A record without a key (the poller leaves it out when null) decodes with a null key.
    assertThat(records.get(1).key()).isNull();
  }

  @Test
  void anEventFromAnotherSourceIsRefusedNamingEventSource() throws Exception {
    JsonNode sqs = EventJson.MAPPER.readTree("{\"eventSource\":\"aws:sqs\",\"records\":{}}");
    assertThatThrownBy(() -> KafkaBatch.records(json, sqs))
        .isInstanceOf(InvalidEventException.class)
        .hasMessage(
            "purge: eventSource must be aws:kafka (an MSK event-source mapping), was 'aws:sqs'");
  }

  @Test
  void aRecordListedUnderAnotherPartitionIsRefused() throws Exception {
    JsonNode misfiled =
        event(
            "{\"storage-purge-0\":[{\"topic\":\"storage-purge\",\"partition\":2,"
                + "\"offset\":1,\"value\":\"AQ==\"}]}");
    assertThatThrownBy(() -> KafkaBatch.records(json, misfiled))
        .hasMessage(
            "purge: records[\"storage-purge-0\"][0] is listed under 'storage-purge-0' but names"
                + " topic 'storage-purge' partition 2");
  }

  @Test
  void aRecordWithoutAValueIsRefusedRatherThanSkipped() throws Exception {
    JsonNode tombstone =
        event("{\"storage-purge-0\":[{\"topic\":\"storage-purge\",\"partition\":0,\"offset\":4}]}");
    assertThatThrownBy(() -> KafkaBatch.records(json, tombstone))
        .hasMessageStartingWith("purge: records[\"storage-purge-0\"][0].value is missing");
  }

  @Test
  void aNegativeOffsetOrMissingTopicIsNamed() throws Exception {
    assertThatThrownBy(
            () ->
                KafkaBatch.records(
                    json,
                    event(
                        "{\"storage-purge-0\":[{\"topic\":\"storage-purge\",\"partition\":0,\"offset\":-1,\"value\":\"AQ==\"}]}")))
        .hasMessage(
            "purge: records[\"storage-purge-0\"][0].offset must be a whole number of at least 0");
    assertThatThrownBy(
            () ->
                KafkaBatch.records(
                    json,
                    event(
                        "{\"storage-purge-0\":[{\"partition\":0,\"offset\":1,\"value\":\"AQ==\"}]}")))
        .hasMessage("purge: records[\"storage-purge-0\"][0].topic must be a non-blank string");
    assertThatThrownBy(() -> KafkaBatch.records(json, event("[]")))
        .hasMessage("purge: records must be a JSON object");
  }
}
