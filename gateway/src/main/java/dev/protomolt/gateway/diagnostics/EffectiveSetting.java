package dev.protomolt.gateway.diagnostics;

import java.util.Locale;
import java.util.Objects;

/**
 * One resolved setting of the gateway as {@code GetEffectiveConfig} reports it.
 *
 * @param key the environment key (or, for a built-in setting, its dotted name)
 * @param value the value in force, {@value #REDACTED} for a secret
 * @param source {@code default}, {@code environment} or {@code stack}
 */
public record EffectiveSetting(String key, String value, String source) {

  public static final String REDACTED = "<redacted>";
  public static final String DEFAULT = "default";
  public static final String ENVIRONMENT = "environment";
  public static final String STACK = "stack";

  public EffectiveSetting {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(source, "source");
    if (isSecret(key)) {
      value = REDACTED;
    }
  }

  /**
   * Passwords, secret keys and tokens never leave the process: a key naming one of them is
   * redacted whatever its value, so a new secret setting is covered without a list to update.
   */
  public static boolean isSecret(String key) {
    String k = key.toUpperCase(Locale.ROOT);
    return k.contains("PASSWORD") || k.contains("SECRET") || k.contains("TOKEN");
  }
}
