package dev.protomolt.lambda.accounts;

import dev.protomolt.core.store.Drive;
import dev.protomolt.core.store.DriveKind;
import dev.protomolt.proto.events.v1.AccountEvent;
import dev.protomolt.proto.events.v1.AccountEventType;
import dev.protomolt.proto.events.v1.DriveProvider;
import dev.protomolt.repository.PipeDocStore;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;

/**
 * What an account event does in AWS: the store records the account's drives and status, then an
 * account whose intake drive ProtoMolt provides (the shared intake bucket) gets its notification
 * rule (decision 0660), and each datasource the event names is bound to the account (decision
 * 0672), those it names forgettable declared right-to-be-forgotten for every upload (decision
 * 1512). A batch is checked whole before anything is applied.
 */
public final class AccountProvisioning {

  private final PipeDocStore store;
  private final BiFunction<String, DriveKind, Optional<Drive>> drives;
  private final IntakeNotificationRules rules;
  private final BiConsumer<String, String> datasources;
  private final BiConsumer<String, String> forgettable;

  /**
   * @param drives the directory the store writes, read back to learn the intake drive as stored
   * @param datasources binds a datasource id to its owning account (graph admin's tenancy
   *     directory reads these bindings, decision 0672); refuses a second owner
   * @param forgettable declares a bound datasource of the account right-to-be-forgotten for every
   *     upload (intake reads it, decision 1512)
   */
  public AccountProvisioning(
      PipeDocStore store,
      BiFunction<String, DriveKind, Optional<Drive>> drives,
      IntakeNotificationRules rules,
      BiConsumer<String, String> datasources,
      BiConsumer<String, String> forgettable) {
    this.store = Objects.requireNonNull(store, "store");
    this.drives = Objects.requireNonNull(drives, "drives");
    this.rules = Objects.requireNonNull(rules, "rules");
    this.datasources = Objects.requireNonNull(datasources, "datasources");
    this.forgettable = Objects.requireNonNull(forgettable, "forgettable");
  }

  /** Applies the batch in order; returns how many events added or confirmed a notification rule. */
  public int apply(List<AccountEvent> batch) {
    for (int i = 0; i < batch.size(); i++) {
      requireAccountId(i, batch.get(i).getAccountId());
      List<String> ids = batch.get(i).getDatasourceIdsList();
      for (int j = 0; j < ids.size(); j++) {
        if (ids.get(j).isBlank()) {
          throw new IllegalArgumentException(
              "account event [" + i + "] datasource_ids[" + j + "] must be non-blank");
        }
      }
      List<String> forget = batch.get(i).getForgettableDatasourceIdsList();
      for (int j = 0; j < forget.size(); j++) {
        if (!ids.contains(forget.get(j))) {
          throw new IllegalArgumentException(
              "account event ["
                  + i
                  + "] forgettable_datasource_ids["
                  + j
                  + "] must be one of the event's datasource_ids, got '"
                  + forget.get(j)
                  + "'");
        }
      }
    }
    int rulesEnsured = 0;
    for (AccountEvent event : batch) {
      // Bound first, so a claim on another account's datasource refuses the event before the store
      // changes anything; binding again on redelivery is a no-op. Bound even for a deactivated
      // account: ownership outlives activity, so a paused owner's datasource is not free to claim.
      event.getDatasourceIdsList().forEach(id -> datasources.accept(id, event.getAccountId()));
      event
          .getForgettableDatasourceIdsList()
          .forEach(id -> forgettable.accept(id, event.getAccountId()));
      store.onAccountEvent(event);
      if (event.getType() != AccountEventType.ACCOUNT_EVENT_TYPE_DEACTIVATED
          && event.hasIntakeDrive()
          && event.getIntakeDrive().getProvider() == DriveProvider.DRIVE_PROVIDER_PROTOMOLT) {
        Drive intake =
            drives
                .apply(event.getAccountId(), DriveKind.INTAKE)
                .orElseThrow(
                    () ->
                        new IllegalStateException(
                            "account '"
                                + event.getAccountId()
                                + "': the store recorded no"
                                + " intake drive for an event that names one"));
        rules.ensure(intake, event.getAccountId());
        rulesEnsured++;
      }
    }
    return rulesEnsured;
  }

  /**
   * Uploads live under {@code <account>/} and intake copies under {@code _intake-copies/}, so an
   * account id with a '/' or a leading '_' would make one account's rule cover another's objects.
   */
  static void requireAccountId(int index, String accountId) {
    if (accountId.isBlank() || accountId.contains("/") || accountId.startsWith("_")) {
      throw new IllegalArgumentException(
          "account event ["
              + index
              + "] account_id must be non-blank, contain no '/' and not start with '_' (intake"
              + " copies live under _intake-copies/), got '"
              + accountId
              + "'");
    }
  }
}
