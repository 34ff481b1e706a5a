package dev.protomolt.names;

/**
 * Object key prefixes the store writes and the stack's bucket rules match. A lifecycle rule filters
 * on the start of a key, so a prefix both must agree on comes before everything else in the key.
 */
public final class StoragePrefix {

  /**
   * Every CACHE copy ({@code keep=false}) is keyed {@code cache/<drive prefix><nodeId>/...}: the
   * platform bucket's lifecycle rule expires what reclaim missed, and never touches a PERSIST copy.
   */
  public static final String CACHE_STAGING = "cache/";

  /**
   * A sealed document log's original text is kept at {@code logs/<collection>/<path>} in the
   * platform bucket (decision 1674); the gateway's grant is scoped to this prefix.
   */
  public static final String LOG_ORIGINALS = "logs/";

  private StoragePrefix() {}
}
