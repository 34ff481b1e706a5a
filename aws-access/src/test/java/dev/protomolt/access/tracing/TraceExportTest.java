package dev.protomolt.access.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.tracing.Tracing;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The trace export settings and each refusal, named by variable and rule (decision 1797). */
class TraceExportTest {

  @Test
  void withoutAnEndpointTracingIsOffWhateverTheSigningSetting() {
    TraceExport export = TraceExport.from(Map.of("PROTOMOLT_OTLP_SIGV4_SERVICE", "xray"));
    assertThat(export.enabled()).isFalse();
    assertThat(export.signingService()).isEmpty();
    assertThat(export.open("intake").enabled()).isFalse();
  }

  @Test
  void anEndpointAloneExportsUnsignedAndWithTheServiceSigned() {
    TraceExport plain =
        TraceExport.from(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:9"));
    assertThat(plain.enabled()).isTrue();
    assertThat(plain.signingService()).isEmpty();
    TraceExport signed =
        TraceExport.from(
            Map.of(
                "OTEL_EXPORTER_OTLP_ENDPOINT", "https://xray.eu-west-1.amazonaws.com",
                "PROTOMOLT_OTLP_SIGV4_SERVICE", "xray",
                "AWS_REGION", "eu-west-1",
                "AWS_ACCESS_KEY_ID", "AKIDEXAMPLE",
                "AWS_SECRET_ACCESS_KEY", "secret"));
    assertThat(signed.signingService()).hasValue("xray");
    try (Tracing tracing = signed.open("gateway")) {
      assertThat(tracing.enabled()).isTrue();
    }
  }

  @Test
  void eachBadSettingIsRefusedNamingTheVariableAndTheRule() {
    assertThatThrownBy(
            () ->
                TraceExport.from(
                    Map.of(
                        "OTEL_EXPORTER_OTLP_ENDPOINT", "https://xray.eu-west-1.amazonaws.com",
                        "PROTOMOLT_OTLP_SIGV4_SERVICE", "X Ray",
                        "AWS_REGION", "eu-west-1")))
        .hasMessageStartingWith("PROTOMOLT_OTLP_SIGV4_SERVICE: must be a SigV4 service name")
        .hasMessageContaining("X Ray");
    assertThatThrownBy(
            () ->
                TraceExport.from(
                    Map.of(
                        "OTEL_EXPORTER_OTLP_ENDPOINT", "https://xray.eu-west-1.amazonaws.com",
                        "PROTOMOLT_OTLP_SIGV4_SERVICE", "xray")))
        .hasMessage(
            "AWS_REGION: required to sign trace exports (PROTOMOLT_OTLP_SIGV4_SERVICE is set),"
                + " but not set");
    assertThatThrownBy(() -> TraceExport.from(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "xray:4318")))
        .hasMessageStartingWith("OTEL_EXPORTER_OTLP_ENDPOINT 'xray:4318'")
        .hasMessageContaining("http:// or https://");
  }
}
