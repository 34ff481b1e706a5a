package dev.protomolt.repository;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.protomolt.core.store.AccountStatus;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class CachedAccountStatusTest {

  /** The account source: a map, and a count of how often it was asked. */
  private static final class CountingSource implements AccountStatus {
    final Map<String, Boolean> active = new HashMap<>();
    final AtomicInteger lookups = new AtomicInteger();

    @Override
    public boolean isActive(String accountId) {
      lookups.incrementAndGet();
      return active.getOrDefault(accountId, false);
    }
  }

  private final AtomicLong nanos = new AtomicLong();
  private final Ticker ticker = nanos::get;
  private final CountingSource source = new CountingSource();
  private final CachedAccountStatus cached = new CachedAccountStatus(source, ticker);

  private void advance(Duration d) {
    nanos.addAndGet(d.toNanos());
  }

  @Test
  void anActiveAccountIsRememberedForFiveMinutes() {
    source.active.put("acme", true);
    assertThat(cached.isActive("acme")).isTrue();

    source.active.put("acme", false);
    advance(Duration.ofMinutes(5).minusSeconds(1));
    assertThat(cached.isActive("acme")).as("still inside the positive TTL").isTrue();
    assertThat(source.lookups).hasValue(1);

    advance(Duration.ofSeconds(2));
    assertThat(cached.isActive("acme")).isFalse();
    assertThat(source.lookups).hasValue(2);
  }

  @Test
  void anInactiveAccountIsRememberedForFiveSecondsOnly() {
    assertThat(cached.isActive("new")).isFalse();
    source.active.put("new", true);

    advance(Duration.ofSeconds(4));
    assertThat(cached.isActive("new")).isFalse();
    advance(Duration.ofSeconds(2));
    assertThat(cached.isActive("new")).isTrue();
  }

  @Test
  void anAccountEventInvalidatesAtOnce() {
    source.active.put("acme", true);
    assertThat(cached.isActive("acme")).isTrue();

    source.active.put("acme", false);
    cached.invalidate("acme");

    assertThat(cached.isActive("acme")).isFalse();
  }
}
