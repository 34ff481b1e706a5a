package dev.protomolt.gateway.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.gateway.LocalCallers;
import dev.protomolt.identity.GatewayCallCredentials;
import io.grpc.Status;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * A token STS refused is refused again without asking STS for {@link
 * StsCallerIdentities#REFUSAL_CACHED} (decision 1510), against the local STS: a flood of it costs
 * one STS request, the refusal lapses, it is remembered for that token only, and STS being
 * unreachable is never remembered.
 */
class RefusedTokenCacheTest {

  private static LocalCallers callers;

  @BeforeAll
  static void start() throws Exception {
    callers = new LocalCallers();
  }

  @AfterAll
  static void stop() {
    callers.close();
  }

  private static String token(String key, String secret, Clock clock) {
    return new GatewayCallCredentials(
            StaticCredentialsProvider.create(AwsBasicCredentials.create(key, secret)),
            callers.endpoint(),
            "us-east-1",
            LocalCallers.AUDIENCE,
            clock)
        .token();
  }

  private static Status refusal(StsCallerIdentities verifier, String token) {
    try {
      verifier.verify(token);
    } catch (CallerRefusedException e) {
      return e.status();
    }
    throw new AssertionError("the token was accepted");
  }

  @Test
  void aFloodOfOneRefusedTokenCostsOneStsRequestUntilTheRefusalLapses() {
    MovingClock clock = new MovingClock();
    clock.now = Instant.now();
    StsCallerIdentities verifier =
        new StsCallerIdentities(callers.endpoint(), LocalCallers.AUDIENCE, clock);
    String guessed = token("acme-operator-key", "guessed", clock);

    for (int i = 0; i < 20; i++) {
      Status s = refusal(verifier, guessed);
      assertThat(s.getCode()).as("call %d", i + 1).isEqualTo(Status.Code.UNAUTHENTICATED);
      assertThat(s.getDescription()).contains("SignatureDoesNotMatch");
    }
    assertThat(verifier.stsRequests()).isEqualTo(1);

    clock.now = clock.now.plus(StsCallerIdentities.REFUSAL_CACHED).plusSeconds(1);
    assertThat(refusal(verifier, guessed).getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
    assertThat(verifier.stsRequests()).as("asked again once the refusal lapsed").isEqualTo(2);
  }

  @Test
  void aRefusalIsRememberedForItsOwnTokenOnly() throws Exception {
    Clock clock = Clock.systemUTC();
    StsCallerIdentities verifier =
        new StsCallerIdentities(callers.endpoint(), LocalCallers.AUDIENCE, clock);
    assertThat(refusal(verifier, token("acme-operator-key", "guessed", clock)).getCode())
        .isEqualTo(Status.Code.UNAUTHENTICATED);

    VerifiedCaller caller =
        verifier.verify(token("acme-operator-key", "acme-operator-secret", clock));

    assertThat(caller.principal()).endsWith("role/test-operator-acme");
    assertThat(verifier.stsRequests()).isEqualTo(2);
  }

  @Test
  void stsBeingUnreachableIsNeverRemembered() {
    Clock clock = Clock.systemUTC();
    StsCallerIdentities unreachable =
        new StsCallerIdentities(URI.create("http://127.0.0.1:9"), LocalCallers.AUDIENCE, clock);
    String token = token("acme-operator-key", "acme-operator-secret", clock);

    assertThat(refusal(unreachable, token).getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(refusal(unreachable, token).getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(unreachable.stsRequests()).isEqualTo(2);
  }
}
