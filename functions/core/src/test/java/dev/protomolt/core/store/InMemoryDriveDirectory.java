package dev.protomolt.core.store;

import dev.protomolt.proto.events.v1.AccountEvent;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Accounts and drives in maps; also answers {@link AccountStatus} from what events said. */
public final class InMemoryDriveDirectory implements DriveDirectory, AccountStatus {

  private final Map<String, Drive> drives = new ConcurrentHashMap<>();
  private final Map<String, Boolean> active = new ConcurrentHashMap<>();

  @Override
  public void apply(AccountEvent event) {
    String accountId = AccountDrives.accountId(event);
    switch (event.getType()) {
      case ACCOUNT_EVENT_TYPE_CREATED, ACCOUNT_EVENT_TYPE_UPDATED -> {
        AccountDrives both = AccountDrives.of(event);
        drives.put(both.intake().name(), both.intake());
        drives.put(both.pipeline().name(), both.pipeline());
        active.putIfAbsent(accountId, true);
      }
      case ACCOUNT_EVENT_TYPE_DEACTIVATED -> setActive(accountId, false);
      case ACCOUNT_EVENT_TYPE_REACTIVATED -> setActive(accountId, true);
      case ACCOUNT_EVENT_TYPE_UNSPECIFIED, UNRECOGNIZED ->
          throw new IllegalArgumentException(
              "type: must be CREATED, UPDATED, DEACTIVATED or"
                  + " REACTIVATED but was "
                  + event.getType());
    }
  }

  private void setActive(String accountId, boolean value) {
    if (active.replace(accountId, value) == null) {
      throw new IllegalArgumentException("account_id: no provisioned account " + accountId);
    }
  }

  @Override
  public Optional<Drive> find(String accountId, DriveKind kind) {
    return findByName(kind.driveName(accountId));
  }

  @Override
  public Optional<Drive> findByName(String driveName) {
    return Optional.ofNullable(drives.get(driveName));
  }

  @Override
  public boolean isActive(String accountId) {
    return active.getOrDefault(accountId, false);
  }
}
