package dev.protomolt.core.store;

import dev.protomolt.proto.events.v1.AccountEvent;
import dev.protomolt.proto.events.v1.DriveBinding;
import dev.protomolt.proto.events.v1.DriveProvider;

/**
 * The two drives an account event provisions, validated together: an account with one drive is not
 * provisioned, so an event missing either is refused whole, naming the field.
 */
public record AccountDrives(Drive intake, Drive pipeline) {

  /** Validates the account id every account event carries. */
  public static String accountId(AccountEvent event) {
    String accountId = event.getAccountId();
    if (accountId.isBlank()) {
      throw new IllegalArgumentException("account_id: must not be blank");
    }
    if (accountId.contains(":")) {
      throw new IllegalArgumentException("account_id: must not contain ':' (drive names use it)");
    }
    return accountId;
  }

  /** The drives of a CREATED or UPDATED event. */
  public static AccountDrives of(AccountEvent event) {
    String accountId = accountId(event);
    return new AccountDrives(
        drive(
            accountId,
            DriveKind.INTAKE,
            "intake_drive",
            event.hasIntakeDrive() ? event.getIntakeDrive() : null),
        drive(
            accountId,
            DriveKind.PIPELINE,
            "pipeline_drive",
            event.hasPipelineDrive() ? event.getPipelineDrive() : null));
  }

  private static Drive drive(String accountId, DriveKind kind, String field, DriveBinding b) {
    if (b == null) {
      throw new IllegalArgumentException(field + ": required; every account gets both drives");
    }
    String expected = kind.driveName(accountId);
    if (!b.getDriveName().isEmpty() && !b.getDriveName().equals(expected)) {
      throw new IllegalArgumentException(
          field + ".drive_name: must be " + expected + " but was " + b.getDriveName());
    }
    if (b.getBucket().isBlank()) {
      throw new IllegalArgumentException(field + ".bucket: must not be blank");
    }
    if (!b.getPrefix().chars().allMatch(AccountDrives::isKeySafe)) {
      // Object keys must need no escaping in a SigV4 canonical request (see ObjectKeys).
      throw new IllegalArgumentException(
          field
              + ".prefix: may hold only A-Z a-z 0-9 - _ . /"
              + " but was '"
              + b.getPrefix()
              + "'");
    }
    if (b.getRegion().isBlank()) {
      throw new IllegalArgumentException(field + ".region: must not be blank");
    }
    if (b.getProvider() != DriveProvider.DRIVE_PROVIDER_CLIENT
        && b.getProvider() != DriveProvider.DRIVE_PROVIDER_PROTOMOLT) {
      throw new IllegalArgumentException(field + ".provider: must be CLIENT or PROTOMOLT");
    }
    return new Drive(
        expected,
        accountId,
        kind,
        b.getBucket(),
        b.getPrefix(),
        b.getRegion(),
        b.getCredentialsRef(),
        b.getProvider());
  }

  private static boolean isKeySafe(int c) {
    return (c >= 'A' && c <= 'Z')
        || (c >= 'a' && c <= 'z')
        || (c >= '0' && c <= '9')
        || c == '-'
        || c == '_'
        || c == '.'
        || c == '/';
  }
}
