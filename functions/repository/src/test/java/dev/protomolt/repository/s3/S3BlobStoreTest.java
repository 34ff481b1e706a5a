package dev.protomolt.repository.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.store.BlobStore;
import dev.protomolt.core.store.BlobStore.CopyMode;
import dev.protomolt.core.store.BlobStoreContract;
import dev.protomolt.core.store.Drive;
import dev.protomolt.core.store.DriveKind;
import dev.protomolt.core.store.ObjectAddress;
import dev.protomolt.core.store.ObjectMissingException;
import dev.protomolt.proto.events.v1.DriveProvider;
import dev.protomolt.repository.fixtures.S3ProxyFixture;
import dev.protomolt.repository.fixtures.TransferCounter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class S3BlobStoreTest extends BlobStoreContract {

  private static S3ProxyFixture platform;
  private static S3ProxyFixture customer;
  private static final TransferCounter counter = new TransferCounter();
  private static S3Clients clients;
  private static S3BlobStore store;

  private static final Drive INTAKE =
      new Drive(
          "acme:intake",
          "acme",
          DriveKind.INTAKE,
          "customer-bucket",
          "in",
          S3ProxyFixture.REGION,
          "customer",
          DriveProvider.DRIVE_PROVIDER_CLIENT);
  private static final Drive PIPELINE =
      new Drive(
          "acme:pipeline",
          "acme",
          DriveKind.PIPELINE,
          "platform-bucket",
          "",
          S3ProxyFixture.REGION,
          "platform",
          DriveProvider.DRIVE_PROVIDER_PROTOMOLT);
  private static final Drive PIPELINE_TOO =
      new Drive(
          "beta:pipeline",
          "beta",
          DriveKind.PIPELINE,
          "platform-bucket-2",
          "",
          S3ProxyFixture.REGION,
          "platform",
          DriveProvider.DRIVE_PROVIDER_PROTOMOLT);

  @BeforeAll
  static void start() {
    platform = S3ProxyFixture.start("platform-key", "platform-secret");
    customer = S3ProxyFixture.start("customer-key", "customer-secret");
    platform.createBucket("platform-bucket");
    platform.createBucket("platform-bucket-2");
    customer.createBucket("customer-bucket");
    clients =
        new S3Clients(
            Map.of("platform", platform.settings(), "customer", customer.settings()),
            List.of(counter));
    store = new S3BlobStore(clients);
  }

  @AfterAll
  static void stop() throws Exception {
    clients.close();
    platform.close();
    customer.close();
  }

  @Override
  protected BlobStore store() {
    return store;
  }

  @Override
  protected Drive drive() {
    return PIPELINE;
  }

  @Override
  protected Drive sibling() {
    return PIPELINE_TOO;
  }

  @BeforeEach
  void resetCounter() {
    counter.reset();
  }

  @Test
  void putThenGetReturnsTheSameBytesUnderTheDrivePrefix() {
    byte[] bytes = "hello".getBytes(StandardCharsets.UTF_8);
    ObjectAddress at = INTAKE.address("n1/core.pb");

    store.put(at, bytes, false);

    assertThat(at.key()).isEqualTo("in/n1/core.pb");
    assertThat(store.get(at)).isEqualTo(bytes);
  }

  @Test
  void verifiedPutSendsTheSha256ChecksumAndLands() {
    byte[] bytes = "verified".getBytes(StandardCharsets.UTF_8);
    ObjectAddress at = PIPELINE.address("n2/core.pb");

    store.put(at, bytes, true);

    assertThat(store.get(at)).isEqualTo(bytes);
    assertThat(counter.requests())
        .filteredOn(s -> s.operation().equals("PutObject"))
        .singleElement()
        .matches(s -> TransferCounter.carriesSha256Checksum(s.request()));
  }

  @Test
  void missingObjectIsTypedAndNamesTheAddress() {
    ObjectAddress at = PIPELINE.address("nope/core.pb");

    assertThatThrownBy(() -> store.get(at))
        .isInstanceOf(ObjectMissingException.class)
        .hasMessageContaining("platform-bucket/nope/core.pb");
    assertThatThrownBy(() -> store.copy(at, PIPELINE_TOO.address("x/core.pb")))
        .isInstanceOf(ObjectMissingException.class);
  }

  @Test
  void copyWithSharedCredentialsStaysServerSide() {
    byte[] big = new byte[256 * 1024];
    ObjectAddress from = PIPELINE.address("n3/blobs.pb");
    store.put(from, big, false);
    counter.reset();

    CopyMode mode = store.copy(from, PIPELINE_TOO.address("n4/blobs.pb"));

    assertThat(mode).isEqualTo(CopyMode.SERVER_SIDE);
    assertThat(counter.calls("CopyObject")).isEqualTo(1);
    assertThat(counter.calls("GetObject")).isZero();
    assertThat(counter.totalBodyBytes()).isLessThan(4096);
    assertThat(store.get(PIPELINE_TOO.address("n4/blobs.pb"))).isEqualTo(big);
  }

  @Test
  void copyAcrossCredentialsGoesThroughEachDrivesOwnClient() {
    byte[] bytes = "customer bytes".getBytes(StandardCharsets.UTF_8);
    ObjectAddress from = INTAKE.address("n5/blobs.pb");
    store.put(from, bytes, false);

    CopyMode mode = store.copy(from, PIPELINE.address("n6/blobs.pb"));

    assertThat(mode).isEqualTo(CopyMode.THROUGH_CALLER);
    assertThat(store.get(PIPELINE.address("n6/blobs.pb"))).isEqualTo(bytes);
    // The platform endpoint never held the customer's object; only the copy landed there.
    assertThatThrownBy(() -> store.get(new ObjectAddress(INTAKE, "in/n6/blobs.pb")))
        .isInstanceOf(ObjectMissingException.class);
  }

  @Test
  void unknownCredentialsReferenceIsRefusedByName() {
    Drive stray =
        new Drive(
            "zed:pipeline",
            "zed",
            DriveKind.PIPELINE,
            "b",
            "",
            S3ProxyFixture.REGION,
            "nobody",
            DriveProvider.DRIVE_PROVIDER_PROTOMOLT);

    assertThatThrownBy(() -> store.get(stray.address("k")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("credentials_ref 'nobody'");
  }
}
