package dev.protomolt.core.store;

import dev.protomolt.proto.events.v1.DriveProvider;

class InMemoryBlobStoreTest extends BlobStoreContract {

  private final InMemoryBlobStore store = new InMemoryBlobStore();

  @Override
  protected BlobStore store() {
    return store;
  }

  @Override
  protected Drive drive() {
    return new Drive(
        "acme:pipeline",
        "acme",
        DriveKind.PIPELINE,
        "b1",
        "",
        "us-east-1",
        "p",
        DriveProvider.DRIVE_PROVIDER_PROTOMOLT);
  }

  @Override
  protected Drive sibling() {
    return new Drive(
        "beta:pipeline",
        "beta",
        DriveKind.PIPELINE,
        "b2",
        "x/",
        "us-east-1",
        "p",
        DriveProvider.DRIVE_PROVIDER_PROTOMOLT);
  }
}
