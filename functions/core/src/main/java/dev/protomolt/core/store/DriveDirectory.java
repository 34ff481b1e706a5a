package dev.protomolt.core.store;

import dev.protomolt.proto.events.v1.AccountEvent;
import java.util.Optional;

/** The accounts and their two drives, provisioned from account events and looked up per save. */
public interface DriveDirectory {

  /**
   * Applies an account event: CREATED and UPDATED upsert the account and both of its drives,
   * DEACTIVATED and REACTIVATED flip the account's active flag.
   *
   * @throws IllegalArgumentException naming the field when the event is incomplete or inconsistent
   */
  void apply(AccountEvent event);

  /** The account's drive of {@code kind}; empty when the account was never provisioned. */
  Optional<Drive> find(String accountId, DriveKind kind);

  /** A drive by its name ({@code <accountId>:intake} / {@code <accountId>:pipeline}). */
  Optional<Drive> findByName(String driveName);
}
