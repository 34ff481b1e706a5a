package dev.protomolt.localstack.iam;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One authorization question AWS asks for a call: may the caller perform {@code action} (for
 * example {@code s3:GetObject}) on {@code resource} (an ARN, or {@code *} for actions that have no
 * resource), given the request's condition keys. A call may ask several (CopyObject reads one
 * object and writes another).
 *
 * @param context condition keys of this request (such as {@code iam:PassedToService}), keyed by
 *     their lower-cased names because AWS compares condition key names case-insensitively
 */
public record AccessRequest(String action, String resource, Map<String, String> context) {

  public AccessRequest {
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(resource, "resource");
    Map<String, String> keys = new LinkedHashMap<>();
    context.forEach(
        (key, value) -> keys.put(key.toLowerCase(Locale.ROOT), Objects.requireNonNull(value)));
    context = Map.copyOf(keys);
  }

  public static AccessRequest of(String action, String resource) {
    return new AccessRequest(action, resource, Map.of());
  }

  /** The value of a condition key in this request, or null when the request does not carry it. */
  public String contextValue(String key) {
    return context.get(key.toLowerCase(Locale.ROOT));
  }
}
