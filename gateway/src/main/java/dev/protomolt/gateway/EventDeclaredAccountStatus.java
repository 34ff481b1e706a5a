package dev.protomolt.gateway;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.protomolt.core.store.AccountStatus;
import dev.protomolt.proto.events.v1.AccountEvent;
import java.time.Duration;

/**
 * Account activity as the latest account event declared it, in front of the ledger-backed cache.
 * The event is the source of truth and the account-events function writes it to the ledger only
 * when it gets to it; trusting the event for {@link #DECLARED_FOR} means a task that reads the
 * event first never reloads the old state from a ledger not yet updated (decision 1744).
 */
final class EventDeclaredAccountStatus implements AccountStatus {

  /** As long as the ledger-backed cache trusts an active account. */
  static final Duration DECLARED_FOR = Duration.ofMinutes(5);

  private final AccountStatus ledger;
  private final Cache<String, Boolean> declared =
      Caffeine.newBuilder().maximumSize(100_000).expireAfterWrite(DECLARED_FOR).build();

  EventDeclaredAccountStatus(AccountStatus ledger) {
    this.ledger = ledger;
  }

  @Override
  public boolean isActive(String accountId) {
    Boolean active = declared.getIfPresent(accountId);
    return active != null ? active : ledger.isActive(accountId);
  }

  @Override
  public void invalidate(String accountId) {
    ledger.invalidate(accountId);
  }

  /** Takes what {@code event} says about its account's activity. */
  void apply(AccountEvent event) {
    String account = event.getAccountId();
    switch (event.getType()) {
      case ACCOUNT_EVENT_TYPE_DEACTIVATED -> declared.put(account, false);
      case ACCOUNT_EVENT_TYPE_CREATED, ACCOUNT_EVENT_TYPE_REACTIVATED ->
          declared.put(account, true);
      default -> {
        // UPDATED changes drives, not activity; anything else says nothing about it.
      }
    }
    ledger.invalidate(account);
  }
}
