package dev.protomolt.access;

import java.net.InetAddress;
import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * The SDK's standard endpoint and credential variables, read from one process's own environment
 * map rather than from {@code System.getenv}: every function of the local cloud shares one JVM, so
 * each must build its clients from the map it was deployed with. In AWS the map is the process's
 * environment, where Lambda puts the role's keys and no endpoint, so the clients reach AWS itself
 * with the role, exactly as the SDK's default chain would.
 */
public final class AwsClientSettings {

  /** The endpoint every service uses unless its own {@code AWS_ENDPOINT_URL_<SERVICE>} is set. */
  public static final String ENDPOINT_URL = "AWS_ENDPOINT_URL";

  public static final String ACCESS_KEY_ID = "AWS_ACCESS_KEY_ID";
  public static final String SECRET_ACCESS_KEY = "AWS_SECRET_ACCESS_KEY";
  public static final String SESSION_TOKEN = "AWS_SESSION_TOKEN";

  /** The service identifiers the platform's clients use, as the SDK spells them in the variable. */
  public static final String S3 = "S3";

  public static final String SFN = "SFN";
  public static final String DYNAMODB = "DYNAMODB";
  public static final String KMS = "KMS";
  public static final String XRAY = "XRAY";
  public static final String LAMBDA = "LAMBDA";
  public static final String KAFKA = "KAFKA";

  private final Map<String, String> values;

  public AwsClientSettings(Map<String, String> values) {
    this.values = Map.copyOf(Objects.requireNonNull(values, "values"));
  }

  /** The variable naming {@code service}'s own endpoint, e.g. {@code AWS_ENDPOINT_URL_SFN}. */
  public static String endpointVariable(String service) {
    return ENDPOINT_URL + "_" + service.toUpperCase(Locale.ROOT).replace(' ', '_');
  }

  /**
   * {@code AWS_ENDPOINT_URL_<SERVICE>} when set, else {@code AWS_ENDPOINT_URL}, else empty (AWS's
   * own endpoint for the region).
   *
   * @throws IllegalStateException naming the variable when its value is not an absolute URL
   */
  public Optional<URI> endpoint(String service) {
    String own = endpointVariable(service);
    Optional<String> v = optional(own);
    if (v.isPresent()) {
      return Optional.of(uri(own, v.get()));
    }
    return optional(ENDPOINT_URL).map(u -> uri(ENDPOINT_URL, u));
  }

  /** Whether the map carries its own keys (Lambda's role keys, or a local function's own key). */
  public boolean hasKeys() {
    return optional(ACCESS_KEY_ID).isPresent() || optional(SECRET_ACCESS_KEY).isPresent();
  }

  /**
   * Static credentials from {@code AWS_ACCESS_KEY_ID}, {@code AWS_SECRET_ACCESS_KEY} and, when
   * present, {@code AWS_SESSION_TOKEN}; the default chain when neither key is in the map.
   *
   * @throws IllegalStateException naming the missing half when only one key is set
   */
  public AwsCredentialsProvider credentials() {
    Optional<String> id = optional(ACCESS_KEY_ID);
    Optional<String> secret = optional(SECRET_ACCESS_KEY);
    if (id.isEmpty() && secret.isEmpty()) {
      return DefaultCredentialsProvider.builder().build();
    }
    if (id.isEmpty()) {
      throw new IllegalStateException(
          ACCESS_KEY_ID + ": required when " + SECRET_ACCESS_KEY + " is set, but not set");
    }
    if (secret.isEmpty()) {
      throw new IllegalStateException(
          SECRET_ACCESS_KEY + ": required when " + ACCESS_KEY_ID + " is set, but not set");
    }
    Optional<String> token = optional(SESSION_TOKEN);
    return StaticCredentialsProvider.create(
        token.isPresent()
            ? AwsSessionCredentials.create(id.get(), secret.get(), token.get())
            : AwsBasicCredentials.create(id.get(), secret.get()));
  }

  /**
   * Whether an S3 endpoint must be addressed path-style: a bucket cannot be a subdomain of an IP
   * address or of {@code localhost}, so S3-compatible servers on those are reached that way.
   */
  public static boolean needsPathStyle(URI endpoint) {
    String host = endpoint.getHost();
    if (host == null) {
      return false;
    }
    if (host.equalsIgnoreCase("localhost")) {
      return true;
    }
    String bare = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    // Only a literal is tested, so no name lookup happens: an IPv4 dotted quad or an IPv6 address.
    if (bare.matches("\\d{1,3}(\\.\\d{1,3}){3}") || bare.contains(":")) {
      try {
        return InetAddress.ofLiteral(bare) != null;
      } catch (IllegalArgumentException e) {
        return false;
      }
    }
    return false;
  }

  private Optional<String> optional(String key) {
    String v = values.get(key);
    return v == null || v.isBlank() ? Optional.empty() : Optional.of(v.strip());
  }

  private static URI uri(String key, String value) {
    try {
      URI u = URI.create(value);
      if (u.getScheme() == null
          || u.getHost() == null
          || !(u.getScheme().equals("http") || u.getScheme().equals("https"))) {
        throw new IllegalStateException(
            key
                + ": must be an absolute http(s) URL such as http://127.0.0.1:4566, got \""
                + value
                + "\"");
      }
      return u;
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(key + ": not a URL: \"" + value + "\"", e);
    }
  }
}
