package dev.protomolt.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

class AwsClientSettingsTest {

  @Test
  void aServicesOwnEndpointWinsOverTheGlobalOne() {
    AwsClientSettings settings =
        new AwsClientSettings(
            Map.of(
                "AWS_ENDPOINT_URL", "http://127.0.0.1:4566",
                "AWS_ENDPOINT_URL_SFN", "http://127.0.0.1:18150"));

    assertThat(settings.endpoint("SFN")).contains(URI.create("http://127.0.0.1:18150"));
    assertThat(settings.endpoint("S3")).contains(URI.create("http://127.0.0.1:4566"));
  }

  @Test
  void noEndpointVariableMeansAwsItself() {
    assertThat(new AwsClientSettings(Map.of()).endpoint("DYNAMODB")).isEmpty();
    assertThat(AwsClientSettings.endpointVariable("dynamodb"))
        .isEqualTo("AWS_ENDPOINT_URL_DYNAMODB");
  }

  @Test
  void aBadEndpointIsRefusedNamingItsVariable() {
    assertThatThrownBy(
            () ->
                new AwsClientSettings(Map.of("AWS_ENDPOINT_URL_S3", "localhost:9000"))
                    .endpoint("S3"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("AWS_ENDPOINT_URL_S3: must be an absolute http(s) URL");
    assertThatThrownBy(
            () -> new AwsClientSettings(Map.of("AWS_ENDPOINT_URL", "ftp://h/")).endpoint("SFN"))
        .hasMessageStartingWith("AWS_ENDPOINT_URL: must be an absolute http(s) URL");
    assertThatThrownBy(
            () -> new AwsClientSettings(Map.of("AWS_ENDPOINT_URL", "http://a b")).endpoint("SFN"))
        .hasMessageStartingWith("AWS_ENDPOINT_URL: not a URL");
  }

  @Test
  void keysInTheMapAreTheCredentials() {
    AwsCredentials basic =
        new AwsClientSettings(
                Map.of("AWS_ACCESS_KEY_ID", "AKIAFUNCTION", "AWS_SECRET_ACCESS_KEY", "secret"))
            .credentials()
            .resolveCredentials();
    assertThat(basic.accessKeyId()).isEqualTo("AKIAFUNCTION");
    assertThat(basic.secretAccessKey()).isEqualTo("secret");

    AwsClientSettings withToken =
        new AwsClientSettings(
            Map.of(
                "AWS_ACCESS_KEY_ID", "ASIAROLE",
                "AWS_SECRET_ACCESS_KEY", "s",
                "AWS_SESSION_TOKEN", "token"));
    assertThat(withToken.credentials()).isInstanceOf(StaticCredentialsProvider.class);
    assertThat(withToken.credentials().resolveCredentials())
        .isInstanceOfSatisfying(
            AwsSessionCredentials.class, c -> assertThat(c.sessionToken()).isEqualTo("token"));
    assertThat(withToken.hasKeys()).isTrue();
  }

  @Test
  void noKeysMeansTheDefaultChain() {
    AwsClientSettings none = new AwsClientSettings(Map.of("AWS_REGION", "eu-west-1"));
    assertThat(none.hasKeys()).isFalse();
    assertThat(none.credentials()).isInstanceOf(DefaultCredentialsProvider.class);
  }

  @Test
  void halfAKeyIsRefusedNamingTheMissingHalf() {
    assertThatThrownBy(
            () -> new AwsClientSettings(Map.of("AWS_ACCESS_KEY_ID", "AKIA")).credentials())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("AWS_SECRET_ACCESS_KEY: required when AWS_ACCESS_KEY_ID is set, but not set");
    assertThatThrownBy(
            () -> new AwsClientSettings(Map.of("AWS_SECRET_ACCESS_KEY", "s")).credentials())
        .hasMessage("AWS_ACCESS_KEY_ID: required when AWS_SECRET_ACCESS_KEY is set, but not set");
  }

  @Test
  void ipAndLocalhostEndpointsArePathStyle() {
    assertThat(AwsClientSettings.needsPathStyle(URI.create("http://127.0.0.1:9000"))).isTrue();
    assertThat(AwsClientSettings.needsPathStyle(URI.create("http://localhost:9000"))).isTrue();
    assertThat(AwsClientSettings.needsPathStyle(URI.create("http://[::1]:9000"))).isTrue();
    assertThat(AwsClientSettings.needsPathStyle(URI.create("https://s3.eu-west-1.amazonaws.com")))
        .isFalse();
    assertThat(AwsClientSettings.needsPathStyle(URI.create("http://999.1.1.1:80"))).isFalse();
  }
}
