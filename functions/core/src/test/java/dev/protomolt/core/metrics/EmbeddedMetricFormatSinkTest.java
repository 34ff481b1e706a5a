package dev.protomolt.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import com.google.protobuf.util.JsonFormat;
import dev.protomolt.names.PlatformMetric;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The EMF lines parse as JSON and say what CloudWatch needs to turn them into the stack's metric. */
class EmbeddedMetricFormatSinkTest {

  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final EmbeddedMetricFormatSink sink =
      new EmbeddedMetricFormatSink(
          new PrintStream(bytes, true, StandardCharsets.UTF_8),
          "dev",
          Clock.fixed(Instant.ofEpochMilli(1_700_000_000_123L), ZoneOffset.UTC));

  @Test
  void aValueIsOneLineNamingTheNamespaceTheEnvironmentAndTheMetric() throws Exception {
    sink.emit(PlatformMetric.DEAD_LETTERS_PUBLISHED, 1);

    List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
    assertThat(lines).hasSize(1);
    Struct line = parse(lines.getFirst());
    Struct aws = line.getFieldsOrThrow("_aws").getStructValue();
    assertThat(aws.getFieldsOrThrow("Timestamp").getNumberValue()).isEqualTo(1_700_000_000_123d);
    Struct directive =
        aws.getFieldsOrThrow("CloudWatchMetrics").getListValue().getValues(0).getStructValue();
    assertThat(directive.getFieldsOrThrow("Namespace").getStringValue()).isEqualTo("ProtoMolt");
    assertThat(strings(directive.getFieldsOrThrow("Dimensions").getListValue().getValues(0)))
        .containsExactly("Environment");
    assertThat(
            directive
                .getFieldsOrThrow("Metrics")
                .getListValue()
                .getValues(0)
                .getStructValue()
                .getFieldsOrThrow("Name")
                .getStringValue())
        .isEqualTo("DeadLettersPublished");
    assertThat(line.getFieldsOrThrow("Environment").getStringValue()).isEqualTo("dev");
    assertThat(line.getFieldsOrThrow("DeadLettersPublished").getNumberValue()).isEqualTo(1);
  }

  @Test
  void eachMetricIsWrittenWithItsOwnUnit() throws Exception {
    sink.emit(PlatformMetric.HOP_PAYLOAD_BYTES, 2048, Map.of("Graph", "g", "Node", "n"));
    sink.emit(PlatformMetric.HOP_LATENCY, 15, Map.of("Graph", "g", "Node", "n"));
    sink.emit(PlatformMetric.DEAD_LETTERS_PUBLISHED, 1);
    List<String> units = new java.util.ArrayList<>();
    for (String line : bytes.toString(StandardCharsets.UTF_8).lines().toList()) {
      units.add(unit(parse(line)));
    }
    assertThat(units).containsExactly("Bytes", "Milliseconds", "Count");
  }

  private static String unit(Struct line) {
    return line.getFieldsOrThrow("_aws")
        .getStructValue()
        .getFieldsOrThrow("CloudWatchMetrics")
        .getListValue()
        .getValues(0)
        .getStructValue()
        .getFieldsOrThrow("Metrics")
        .getListValue()
        .getValues(0)
        .getStructValue()
        .getFieldsOrThrow("Unit")
        .getStringValue();
  }

  @Test
  void extraDimensionsAddASecondDimensionSetBesideTheEnvironmentOnlyOne() throws Exception {
    sink.emit(PlatformMetric.MODULE_TOPIC_BACKLOG, 42, Map.of("ModuleService", "pa\"rser"));

    Struct line = parse(bytes.toString(StandardCharsets.UTF_8).strip());
    Struct directive =
        line.getFieldsOrThrow("_aws")
            .getStructValue()
            .getFieldsOrThrow("CloudWatchMetrics")
            .getListValue()
            .getValues(0)
            .getStructValue();
    List<Value> sets = directive.getFieldsOrThrow("Dimensions").getListValue().getValuesList();
    assertThat(sets).hasSize(2);
    assertThat(strings(sets.get(0))).containsExactly("Environment");
    assertThat(strings(sets.get(1))).containsExactly("Environment", "ModuleService");
    assertThat(line.getFieldsOrThrow("ModuleService").getStringValue()).isEqualTo("pa\"rser");
    assertThat(line.getFieldsOrThrow("ModuleTopicBacklog").getNumberValue()).isEqualTo(42);
  }

  @Test
  void aValueCloudWatchCannotStoreIsRefusedNamingTheMetric() {
    assertThatThrownBy(() -> sink.emit(PlatformMetric.PURGE_FAILURES, Double.NaN))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("PurgeFailures")
        .hasMessageContaining("finite");
    assertThat(bytes.size()).isZero();
  }

  @Test
  void theRecordingSinkKeepsTheEnvironmentDimensionAndSums() {
    RecordingMetricsSink recording = new RecordingMetricsSink("local");
    recording.emit(PlatformMetric.PURGE_FAILURES, 2);
    recording.emit(PlatformMetric.PURGE_FAILURES, 3);
    recording.emit(PlatformMetric.DEAD_LETTERS_PUBLISHED, 1);

    assertThat(recording.sum(PlatformMetric.PURGE_FAILURES)).isEqualTo(5);
    assertThat(recording.records(PlatformMetric.DEAD_LETTERS_PUBLISHED))
        .singleElement()
        .satisfies(r -> assertThat(r.dimensions()).containsEntry("Environment", "local"));
  }

  private static Struct parse(String json) throws Exception {
    Struct.Builder b = Struct.newBuilder();
    JsonFormat.parser().merge(json, b);
    return b.build();
  }

  private static List<String> strings(Value list) {
    return list.getListValue().getValuesList().stream().map(Value::getStringValue).toList();
  }
}
