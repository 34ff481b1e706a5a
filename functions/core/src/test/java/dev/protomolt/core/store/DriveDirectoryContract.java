package dev.protomolt.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.proto.events.v1.AccountEvent;
import dev.protomolt.proto.events.v1.AccountEventType;
import dev.protomolt.proto.events.v1.DriveBinding;
import dev.protomolt.proto.events.v1.DriveProvider;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What every {@link DriveDirectory} (with the {@link AccountStatus} it feeds) does. */
public abstract class DriveDirectoryContract {

  protected abstract DriveDirectory directory();

  /** Account activity as the same source records it. */
  protected abstract AccountStatus accounts();

  public static AccountEvent created(String accountId) {
    return AccountEvent.newBuilder()
        .setAccountId(accountId)
        .setType(AccountEventType.ACCOUNT_EVENT_TYPE_CREATED)
        .setIntakeDrive(
            DriveBinding.newBuilder()
                .setBucket("customer")
                .setPrefix("in")
                .setRegion("us-east-1")
                .setCredentialsRef("customer")
                .setProvider(DriveProvider.DRIVE_PROVIDER_CLIENT))
        .setPipelineDrive(
            DriveBinding.newBuilder()
                .setBucket("platform")
                .setRegion("us-east-1")
                .setCredentialsRef("platform")
                .setProvider(DriveProvider.DRIVE_PROVIDER_PROTOMOLT))
        .build();
  }

  private static String account() {
    return "acct" + UUID.randomUUID().toString().substring(0, 8);
  }

  @Test
  void aCreatedEventProvisionsBothDrives() {
    String a = account();
    directory().apply(created(a));

    Drive intake = directory().find(a, DriveKind.INTAKE).orElseThrow();
    assertThat(intake.name()).isEqualTo(a + ":intake");
    assertThat(intake.prefix()).isEqualTo("in/");
    assertThat(intake.provider()).isEqualTo(DriveProvider.DRIVE_PROVIDER_CLIENT);
    assertThat(directory().findByName(a + ":pipeline").orElseThrow().bucket())
        .isEqualTo("platform");
    assertThat(accounts().isActive(a)).isTrue();
  }

  @Test
  void anEventMissingADriveProvisionsNeither() {
    String a = account();

    assertThatThrownBy(() -> directory().apply(created(a).toBuilder().clearPipelineDrive().build()))
        .hasMessageContaining("pipeline_drive");
    assertThat(directory().find(a, DriveKind.INTAKE)).isEmpty();
    assertThat(accounts().isActive(a)).isFalse();
  }

  @Test
  void aPrefixThatWouldNeedEscapingInAKeyIsRefused() {
    String a = account();
    AccountEvent event = created(a);
    AccountEvent bad =
        event.toBuilder()
            .setIntakeDrive(event.getIntakeDrive().toBuilder().setPrefix("in box/"))
            .build();

    assertThatThrownBy(() -> directory().apply(bad)).hasMessageContaining("intake_drive.prefix");
    assertThat(directory().find(a, DriveKind.INTAKE)).isEmpty();
  }

  @Test
  void deactivationAndReactivationFlipActivity() {
    String a = account();
    directory().apply(created(a));
    directory()
        .apply(
            AccountEvent.newBuilder()
                .setAccountId(a)
                .setType(AccountEventType.ACCOUNT_EVENT_TYPE_DEACTIVATED)
                .build());
    assertThat(accounts().isActive(a)).isFalse();
    directory()
        .apply(
            AccountEvent.newBuilder()
                .setAccountId(a)
                .setType(AccountEventType.ACCOUNT_EVENT_TYPE_REACTIVATED)
                .build());
    assertThat(accounts().isActive(a)).isTrue();

    assertThatThrownBy(
            () ->
                directory()
                    .apply(
                        AccountEvent.newBuilder()
                            .setAccountId(account())
                            .setType(AccountEventType.ACCOUNT_EVENT_TYPE_DEACTIVATED)
                            .build()))
        .hasMessageContaining("account_id");
    assertThatThrownBy(() -> directory().apply(created("a:b"))).hasMessageContaining("account_id");
  }
}
