package dev.protomolt.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

class CallerTokenTest {

  @Test
  void aSignedTokenDecodesToItsPresignedQuery() {
    GatewayCallCredentials credentials =
        new GatewayCallCredentials(
            StaticCredentialsProvider.create(AwsBasicCredentials.create("key", "secret")),
            URI.create("http://127.0.0.1:9"),
            "eu-west-1",
            "protomolt-dev-gateway",
            Clock.systemUTC());

    String query = CallerToken.decode(credentials.token());

    assertThat(query)
        .contains("Action=GetCallerIdentity", "X-Amz-Signature=", "X-Amz-Expires=900")
        .contains("X-Amz-Credential=key%2F")
        .contains("%2Feu-west-1%2Fsts%2Faws4_request");
    // The audience is signed, never carried: the gateway supplies its own value.
    assertThat(CallerToken.signsAudience(query)).isTrue();
    assertThat(query).doesNotContain("protomolt-dev-gateway");
    assertThat(CallerToken.signsAudience("Action=GetCallerIdentity&X-Amz-SignedHeaders=host"))
        .isFalse();
  }

  @Test
  void anAudienceMustBeSetAndHeaderSafe() {
    assertThatThrownBy(() -> GatewayCallCredentials.fromEnvironment(java.util.Map.of()))
        .hasMessageContaining(CallerToken.AUDIENCE_VARIABLE)
        .hasMessageContaining("must be set");
    assertThatThrownBy(() -> CallerToken.requireAudience("f", "two words"))
        .hasMessageContaining("f: the gateway audience must be 1 to 128");
    assertThat(CallerToken.audienceOf("prod")).isEqualTo("protomolt-prod-gateway");
  }

  @Test
  void aTokenIsReusedWithinAThirdOfItsLifetime() {
    GatewayCallCredentials credentials =
        new GatewayCallCredentials(
            StaticCredentialsProvider.create(AwsBasicCredentials.create("key", "secret")),
            URI.create("http://127.0.0.1:9"),
            "us-east-1",
            "protomolt-dev-gateway",
            Clock.systemUTC());

    assertThat(credentials.token()).isEqualTo(credentials.token());
  }

  @Test
  void everyMalformedValueIsRefusedNamingTheRule() {
    assertThatThrownBy(() -> CallerToken.decode(null)).hasMessageContaining("no caller token");
    assertThatThrownBy(() -> CallerToken.decode("Basic abc"))
        .hasMessageContaining("must be 'Bearer protomolt-sts-v1.");
    assertThatThrownBy(() -> CallerToken.decode(CallerToken.PREFIX + "***"))
        .hasMessageContaining("not base64url");
    assertThatThrownBy(() -> CallerToken.decode(CallerToken.PREFIX + encode("Action=AssumeRole")))
        .hasMessageContaining("Action=GetCallerIdentity");
    // A URL is not a query: the gateway alone picks where the token is sent.
    assertThatThrownBy(
            () ->
                CallerToken.decode(
                    CallerToken.PREFIX + encode("https://evil/?Action=GetCallerIdentity")))
        .hasMessageContaining("percent-encoded query string");
    assertThatThrownBy(() -> CallerToken.decode(CallerToken.PREFIX + "a".repeat(9000)))
        .hasMessageContaining("longer than");
  }

  private static String encode(String text) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(text.getBytes(StandardCharsets.US_ASCII));
  }
}
