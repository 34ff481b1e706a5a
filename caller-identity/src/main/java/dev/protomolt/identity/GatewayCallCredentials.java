package dev.protomolt.identity;

import io.grpc.CallCredentials;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;

/**
 * Signs every gateway call with the caller's AWS credentials: a presigned {@code
 * sts:GetCallerIdentity} request ({@link CallerToken}) in the call's metadata. A token is valid
 * for {@link #TOKEN_LIFETIME} and reused for a third of it, so the gateway's verified-identity
 * cache answers most calls without asking STS.
 *
 * <p>The request is signed for {@code stsEndpoint}, which must be the STS endpoint the gateway
 * forwards to: the regional endpoint of the gateway's region in AWS, the local cloud's locally.
 * It also signs {@link CallerToken#AUDIENCE_HEADER} with {@code audience}, the gateway the token is
 * meant for, so another gateway trusting the same STS cannot be called with it (decision 1511).
 */
public final class GatewayCallCredentials extends CallCredentials {

  public static final Duration TOKEN_LIFETIME = Duration.ofMinutes(15);
  private static final Duration REUSE = TOKEN_LIFETIME.dividedBy(3);

  /** The variable naming the STS endpoint, as the AWS SDKs and CLI read it. */
  public static final String STS_ENDPOINT_VARIABLE = "AWS_ENDPOINT_URL_STS";

  private final AwsCredentialsProvider credentials;
  private final URI stsEndpoint;
  private final String region;
  private final String audience;
  private final Clock clock;
  private String token;
  private Instant signedAt = Instant.MIN;

  /**
   * @param audience the gateway the tokens are meant for ({@link CallerToken#AUDIENCE_VARIABLE})
   */
  public GatewayCallCredentials(
      AwsCredentialsProvider credentials,
      URI stsEndpoint,
      String region,
      String audience,
      Clock clock) {
    this.credentials = Objects.requireNonNull(credentials, "credentials");
    this.audience = CallerToken.requireAudience("audience", audience);
    this.stsEndpoint = Objects.requireNonNull(stsEndpoint, "stsEndpoint");
    if (region == null || region.isBlank()) {
      throw new IllegalArgumentException("region: the STS signing region must not be blank");
    }
    this.region = region;
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * The caller's default credential chain, signing for {@code AWS_ENDPOINT_URL_STS} when set, else
   * the regional STS endpoint of {@code AWS_REGION} (or {@code AWS_DEFAULT_REGION}), for the
   * gateway {@code PROTOMOLT_GATEWAY_AUDIENCE} names.
   *
   * @throws IllegalArgumentException naming the variable when the audience is unset or malformed
   */
  public static GatewayCallCredentials fromEnvironment(Map<String, String> env) {
    return new GatewayCallCredentials(
        DefaultCredentialsProvider.builder().build(),
        stsEndpoint(env),
        region(env),
        CallerToken.requireAudience(
            CallerToken.AUDIENCE_VARIABLE, env.get(CallerToken.AUDIENCE_VARIABLE)),
        Clock.systemUTC());
  }

  /** The gateway these tokens are meant for. */
  public String audience() {
    return audience;
  }

  /** {@code AWS_ENDPOINT_URL_STS} when set, else {@code https://sts.<region>.amazonaws.com}. */
  public static URI stsEndpoint(Map<String, String> env) {
    String override = env.get(STS_ENDPOINT_VARIABLE);
    if (override != null && !override.isBlank()) {
      URI uri = URI.create(override.strip());
      if (uri.getScheme() == null || uri.getHost() == null) {
        throw new IllegalArgumentException(
            STS_ENDPOINT_VARIABLE + ": must be an absolute URL, got \"" + override + "\"");
      }
      return uri;
    }
    return URI.create("https://sts." + region(env) + ".amazonaws.com");
  }

  /** {@code AWS_REGION}, else {@code AWS_DEFAULT_REGION}, else us-east-1. */
  public static String region(Map<String, String> env) {
    for (String key : new String[] {"AWS_REGION", "AWS_DEFAULT_REGION"}) {
      String v = env.get(key);
      if (v != null && !v.isBlank()) {
        return v.strip();
      }
    }
    return "us-east-1";
  }

  /**
   * A channel interceptor putting these credentials on every call made through it that carries
   * none of its own (a stub's {@code withCallCredentials} still wins).
   */
  public ClientInterceptor interceptor() {
    CallCredentials self = this;
    return new ClientInterceptor() {
      @Override
      public <Q, R> ClientCall<Q, R> interceptCall(
          MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
        return next.newCall(
            method, options.getCredentials() == null ? options.withCallCredentials(self) : options);
      }
    };
  }

  /** The current token, signing a new one when the last is a third of its lifetime old. */
  public synchronized String token() {
    Instant now = clock.instant();
    if (token == null || !now.isBefore(signedAt.plus(REUSE))) {
      token = CallerToken.encode(presign());
      signedAt = now;
    }
    return token;
  }

  private URI presign() {
    SdkHttpRequest request =
        SdkHttpRequest.builder()
            .method(SdkHttpMethod.GET)
            .uri(stsEndpoint.resolve("/"))
            .putRawQueryParameter("Action", "GetCallerIdentity")
            .putRawQueryParameter("Version", "2011-06-15")
            // Signed, not sent: the gateway supplies its own value when it forwards the query.
            .putHeader(CallerToken.AUDIENCE_HEADER, audience)
            .build();
    return AwsV4HttpSigner.create()
        .sign(
            r ->
                r.identity(credentials.resolveCredentials())
                    .request(request)
                    .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "sts")
                    .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                    .putProperty(
                        AwsV4HttpSigner.AUTH_LOCATION,
                        AwsV4FamilyHttpSigner.AuthLocation.QUERY_STRING)
                    .putProperty(AwsV4HttpSigner.EXPIRATION_DURATION, TOKEN_LIFETIME)
                    .putProperty(HttpSigner.SIGNING_CLOCK, clock))
        .request()
        .getUri();
  }

  @Override
  public void applyRequestMetadata(RequestInfo info, Executor executor, MetadataApplier applier) {
    executor.execute(
        () -> {
          try {
            Metadata headers = new Metadata();
            headers.put(CallerToken.METADATA_KEY, token());
            applier.apply(headers);
          } catch (RuntimeException e) {
            applier.fail(
                Status.UNAUTHENTICATED
                    .withDescription(
                        "could not sign the gateway call with this process's AWS credentials: "
                            + e.getMessage())
                    .withCause(e));
          }
        });
  }
}
