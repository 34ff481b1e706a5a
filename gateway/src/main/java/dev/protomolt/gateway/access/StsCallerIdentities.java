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
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Verifies a caller's token by sending its presigned {@code GetCallerIdentity} query to STS — to
 * the endpoint this gateway is configured with, never to one the caller names — and believing only
 * the ARN STS answers. A verified token is remembered until it expires (at most {@link
 * #MAX_CACHED}), so a stream of calls with one token costs one STS request. A token STS refused
 * is remembered as refused for {@link #REFUSAL_CACHED} (decision 1510), so a flood replaying one
 * bad token costs one STS request per window, not one per call; STS being unreachable is never
 * remembered.
 *
 * <p>A token is bound to one gateway (decision 1511): it must sign {@link
 * CallerToken#AUDIENCE_HEADER}, and the query goes to STS with this gateway's own audience in that
 * header, so STS's signature check refuses a token signed for any other gateway. Both refusals are
 * the same {@code UNAUTHENTICATED} and name no audience, neither this gateway's nor the token's.
 */
public final class StsCallerIdentities implements CallerIdentities {

  /** The longest a verified identity is trusted without asking STS again. */
  public static final Duration MAX_CACHED = Duration.ofMinutes(15);

  /**
   * How long a token STS refused is refused again without asking: long enough that a flood of it
   * costs one STS request per window, short enough that a key registered a moment too late is
   * soon honoured.
   */
  public static final Duration REFUSAL_CACHED = Duration.ofSeconds(30);

  /** How far ahead of the gateway's clock a caller's signing time may be. */
  public static final Duration CLOCK_SKEW = Duration.ofMinutes(5);

  private static final DateTimeFormatter AMZ_DATE =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
  private static final Pattern ARN = Pattern.compile("<Arn>([^<]+)</Arn>");
  private static final Pattern CODE = Pattern.compile("<Code>([^<]+)</Code>");

  private record Verified(VerifiedCaller caller, Instant until) {}

  private record Refused(String description, Instant until) {}

  private final URI stsEndpoint;
  private final String audience;
  private final HttpClient http;
  private final Clock clock;
  private final Cache<String, Verified> verified =
      Caffeine.newBuilder().maximumSize(10_000).expireAfterWrite(MAX_CACHED).build();
  // Bounded: a flood of distinct bad tokens evicts older refusals rather than growing the heap.
  private final Cache<String, Refused> refused =
      Caffeine.newBuilder().maximumSize(10_000).expireAfterWrite(REFUSAL_CACHED).build();
  private final AtomicLong stsRequests = new AtomicLong();

  /**
   * @param audience this gateway's name, which a caller's token must be signed for
   */
  public StsCallerIdentities(URI stsEndpoint, String audience, Clock clock) {
    this.stsEndpoint = stsEndpoint;
    this.audience = CallerToken.requireAudience("audience", audience);
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
    // Refused without asking STS: a token outside its window is never sent on.
    Instant until = window(query, now);
    if (!CallerToken.signsAudience(query)) {
      throw refused(
          "the caller token must sign the "
              + CallerToken.AUDIENCE_HEADER
              + " header naming the gateway it is meant for ("
              + CallerToken.AUDIENCE_VARIABLE
              + ")");
    }
    Verified known = verified.getIfPresent(query);
    if (known != null && now.isBefore(known.until())) {
      return known.caller();
    }
    Refused before = refused.getIfPresent(query);
    if (before != null && now.isBefore(before.until())) {
      throw new CallerRefusedException(
          Status.UNAUTHENTICATED.withDescription(before.description()));
    }
    VerifiedCaller caller;
    try {
      caller = ask(query);
    } catch (CallerRefusedException e) {
      if (e.status().getCode() == Status.Code.UNAUTHENTICATED) {
        refused.put(query, new Refused(e.status().getDescription(), now.plus(REFUSAL_CACHED)));
      }
      throw e;
    }
    verified.put(query, new Verified(caller, until));
    return caller;
  }

  /** How many requests this verifier has sent to STS: what a flood of bad tokens costs. */
  public long stsRequests() {
    return stsRequests.get();
  }

  private VerifiedCaller ask(String query) throws CallerRefusedException {
    HttpResponse<String> answer;
    stsRequests.incrementAndGet();
    try {
      answer =
          http.send(
              HttpRequest.newBuilder(stsEndpoint.resolve("/?" + query))
                  // This gateway's name, never the caller's claim: a token signed for another
                  // gateway then fails STS's signature check.
                  .header(CallerToken.AUDIENCE_HEADER, audience)
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

  /**
   * The token's validity window, checked before STS is asked (decision 1746; {@link
   * CallerToken#decode} already refused any action but {@code GetCallerIdentity}): valid for at
   * most {@link #MAX_CACHED}, not signed in the future beyond {@link #CLOCK_SKEW}, and not
   * expired. Returns when it stops being valid.
   */
  static Instant window(String query, Instant now) throws CallerRefusedException {
    String date = null;
    String expires = null;
    for (String pair : query.split("&")) {
      int eq = pair.indexOf('=');
      if (eq < 0) {
        continue;
      }
      String key = pair.substring(0, eq);
      String value = URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      switch (key) {
        case "X-Amz-Date" -> date = value;
        case "X-Amz-Expires" -> expires = value;
        default -> {
          // Signed along, checked by STS.
        }
      }
    }
    if (date == null || expires == null) {
      throw refused("the caller token must carry X-Amz-Date and X-Amz-Expires (a presigned query)");
    }
    Instant signed;
    long seconds;
    try {
      signed = Instant.from(AMZ_DATE.parse(date));
      seconds = Long.parseLong(expires);
    } catch (DateTimeParseException | NumberFormatException e) {
      throw refused("the caller token's X-Amz-Date or X-Amz-Expires is not readable");
    }
    if (seconds < 1 || seconds > MAX_CACHED.toSeconds()) {
      throw refused(
          "the caller token may be valid for 1 to "
              + MAX_CACHED.toSeconds()
              + " s (X-Amz-Expires), got "
              + seconds
              + ": a longer-lived token would be a replayable credential");
    }
    if (signed.isAfter(now.plus(CLOCK_SKEW))) {
      throw refused(
          "the caller token is signed at "
              + signed
              + ", more than "
              + CLOCK_SKEW.toMinutes()
              + " minutes ahead of the gateway's clock; check the caller's clock");
    }
    Instant until = signed.plusSeconds(seconds);
    if (!now.isBefore(until)) {
      throw refused("the caller token expired at " + until + "; sign a new one");
    }
    return until;
  }

  private static CallerRefusedException refused(String why) {
    return new CallerRefusedException(Status.UNAUTHENTICATED.withDescription(why));
  }
}
