package dev.protomolt.repository;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.LoadingCache;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.protomolt.core.store.AccountStatus;
import java.time.Duration;
import java.util.Objects;

/**
 * Remembers account activity so a save does not ask the account source every time. An active
 * account is trusted for five minutes; an inactive or unknown one only for five seconds, so a
 * newly created account can write almost at once. Account events invalidate the entry, which keeps
 * a deactivation from waiting out the positive TTL.
 */
public final class CachedAccountStatus implements AccountStatus {

  public static final Duration POSITIVE_TTL = Duration.ofMinutes(5);
  public static final Duration NEGATIVE_TTL = Duration.ofSeconds(5);

  private final AccountStatus source;
  private final LoadingCache<String, Boolean> cache;

  public CachedAccountStatus(AccountStatus source) {
    this(source, Ticker.systemTicker());
  }

  /** @param ticker the clock the TTLs are measured on; tests pass a fake one */
  public CachedAccountStatus(AccountStatus source, Ticker ticker) {
    this.source = Objects.requireNonNull(source, "source");
    this.cache =
        Caffeine.newBuilder()
            .maximumSize(100_000)
            .ticker(ticker)
            .expireAfter(
                Expiry.<String, Boolean>writing(
                    (accountId, active) -> active ? POSITIVE_TTL : NEGATIVE_TTL))
            .build(this.source::isActive);
  }

  @Override
  public boolean isActive(String accountId) {
    return cache.get(accountId);
  }

  @Override
  public void invalidate(String accountId) {
    cache.invalidate(accountId);
    source.invalidate(accountId);
  }
}
