package dev.protomolt.gateway.access;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.protomolt.identity.CallerToken;
import io.grpc.Status;
import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Verifies a caller's token by sending its presigned {@code GetCallerIdentity} query to STS — to
 * the endpoint this gateway is configured with, never to one the caller names — and believing only
 * the ARN STS answers. A verified token is remembered until it expires (at most {@link
 * #MAX_CACHED}), so a stream of calls with one token costs one STS request; refusals are not
 * remembered, so a token STS would accept later is not held against its caller.
 */
public final class StsCallerIdentities implements CallerIdentities {

  /** The longest a verified identity is trusted without asking STS again. */
  public static final Duration MAX_CACHED = Duration.ofMinutes(15);

  private static final DateTimeFormatter AMZ_DATE =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
  private static final Pattern ARN = Pattern.compile("<Arn>([^<]+)</Arn>");
  private static final Pattern CODE = Pattern.compile("<Code>([^<]+)</Code>");

  private record Verified(VerifiedCaller caller, Instant until) {}

  private final URI stsEndpoint;
  private final HttpClient http;
  private final Clock clock;
  private final Cache<String, Verified> verified =
      Caffeine.newBuilder().maximumSize(10_000).expireAfterWrite(MAX_CACHED).build();

  public StsCallerIdentities(URI stsEndpoint, Clock clock) {
    this.stsEndpoint = stsEndpoint;
    this.clock = clock;
    this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  }

  @Override
  public VerifiedCaller verify(String metadataValue) throws CallerRefusedException {
    String query;
    try {
      query = CallerToken.decode(metadataValue);
    } catch (IllegalArgumentException e) {
      throw new CallerRefusedException(
          Status.UNAUTHENTICATED.withDescription(
              e.getMessage()
                  + " — sign calls with the caller's AWS credentials"
                  + " (GatewayCallCredentials; docs/security.md)"));
    }
    Instant now = clock.instant();
    Verified known = verified.getIfPresent(query);
    if (known != null && now.isBefore(known.until())) {
      return known.caller();
    }
    VerifiedCaller caller = ask(query);
    Instant until = expiry(query, now);
    if (now.isBefore(until)) {
      verified.put(query, new Verified(caller, until));
    }
    return caller;
  }

  private VerifiedCaller ask(String query) throws CallerRefusedException {
    HttpResponse<String> answer;
    try {
      answer =
          http.send(
              HttpRequest.newBuilder(stsEndpoint.resolve("/?" + query))
                  .timeout(Duration.ofSeconds(10))
                  .GET()
                  .build(),
              HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new CallerRefusedException(
          Status.UNAVAILABLE
              .withDescription("could not reach STS to verify the caller")
              .withCause(e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CallerRefusedException(
          Status.UNAVAILABLE.withDescription("interrupted while verifying the caller"));
    }
    int status = answer.statusCode();
    if (status >= 500) {
      throw new CallerRefusedException(
          Status.UNAVAILABLE.withDescription(
              "STS answered " + status + " while verifying the caller; try again"));
    }
    if (status != 200) {
      Matcher code = CODE.matcher(answer.body());
      throw new CallerRefusedException(
          Status.UNAUTHENTICATED.withDescription(
              "STS refused the caller token ("
                  + (code.find() ? code.group(1) : "HTTP " + status)
                  + ")"));
    }
    Matcher arn = ARN.matcher(answer.body());
    if (!arn.find()) {
      throw new CallerRefusedException(
          Status.UNAVAILABLE.withDescription("STS answered GetCallerIdentity without an Arn"));
    }
    try {
      return VerifiedCaller.of(arn.group(1));
    } catch (IllegalArgumentException e) {
      throw new CallerRefusedException(
          Status.UNAUTHENTICATED.withDescription(
              "the caller " + arn.group(1) + " is not a role or user the gateway can authorize"));
    }
  }

  /** When the token stops being valid: its signing time plus its lifetime, capped. */
  private static Instant expiry(String query, Instant now) {
    String date = null;
    String expires = null;
    for (String pair : query.split("&")) {
      int eq = pair.indexOf('=');
      if (eq < 0) {
        continue;
      }
      String key = pair.substring(0, eq);
      String value = URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      if (key.equals("X-Amz-Date")) {
        date = value;
      } else if (key.equals("X-Amz-Expires")) {
        expires = value;
      }
    }
    Instant cap = now.plus(MAX_CACHED);
    if (date == null || expires == null) {
      // STS accepted it, so it was well formed; without a readable expiry, do not cache it.
      return now;
    }
    try {
      Instant until = Instant.from(AMZ_DATE.parse(date)).plusSeconds(Long.parseLong(expires));
      return until.isBefore(cap) ? until : cap;
    } catch (DateTimeParseException | NumberFormatException e) {
      return now;
    }
  }
}
