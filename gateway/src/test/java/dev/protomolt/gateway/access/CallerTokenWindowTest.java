package dev.protomolt.gateway.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.gateway.LocalCallers;
import dev.protomolt.identity.CallerToken;
import dev.protomolt.identity.GatewayCallCredentials;
import io.grpc.Status;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * A caller token is bound to its use and its window (decision 1746): a presigned
 * GetCallerIdentity, valid for at most 15 minutes, not signed in the future, not expired. Each
 * refusal happens before STS is asked: the verifier points at a port nothing answers on, so a
 * token that reached STS would be UNAVAILABLE, not UNAUTHENTICATED.
 */
class CallerTokenWindowTest {

  private static LocalCallers callers;

  @BeforeAll
  static void start() throws Exception {
    callers = new LocalCallers();
  }

  @AfterAll
  static void stop() {
    callers.close();
  }

  private static String signedAt(Instant at) {
    return new GatewayCallCredentials(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create("acme-operator-key", "acme-operator-secret")),
            callers.endpoint(),
            "us-east-1",
            LocalCallers.AUDIENCE,
            Clock.fixed(at, ZoneOffset.UTC))
        .token();
  }

  private static Status refusal(String token) {
    StsCallerIdentities unreachable =
        new StsCallerIdentities(
            URI.create("http://127.0.0.1:9"), LocalCallers.AUDIENCE, Clock.systemUTC());
    try {
      unreachable.verify(token);
    } catch (CallerRefusedException e) {
      return e.status();
    }
    throw new AssertionError("the token was accepted");
  }

  private static String edited(String token, String from, String to) {
    String query = CallerToken.decode(token);
    assertThat(query).contains(from);
    return CallerToken.encode(URI.create("http://sts.local/?" + query.replace(from, to)));
  }

  @Test
  void aFreshTokenIsVerifiedBySts() throws Exception {
    VerifiedCaller caller =
        new StsCallerIdentities(callers.endpoint(), LocalCallers.AUDIENCE, Clock.systemUTC())
            .verify(signedAt(Instant.now()));
    assertThat(caller.principal()).endsWith("role/test-operator-acme");
  }

  @Test
  void anExpiredTokenIsRefused() {
    Status s = refusal(signedAt(Instant.now().minus(Duration.ofMinutes(20))));
    assertThat(s.getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
    assertThat(s.getDescription()).contains("expired at").contains("sign a new one");
  }

  @Test
  void aTokenSignedInTheFutureIsRefused() {
    Status s = refusal(signedAt(Instant.now().plus(Duration.ofMinutes(10))));
    assertThat(s.getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
    assertThat(s.getDescription()).contains("ahead of the gateway's clock");
  }

  @Test
  void aLongLivedTokenIsRefused() {
    Status s = refusal(edited(signedAt(Instant.now()), "X-Amz-Expires=900", "X-Amz-Expires=3600"));
    assertThat(s.getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
    assertThat(s.getDescription()).contains("1 to 900 s (X-Amz-Expires), got 3600");
  }

  @Test
  void aTokenPresigningAnotherActionIsRefused() {
    Status s =
        refusal(
            edited(signedAt(Instant.now()), "Action=GetCallerIdentity", "Action=GetSessionToken"));
    assertThat(s.getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
    assertThat(s.getDescription()).contains("must presign Action=GetCallerIdentity");
  }
}
