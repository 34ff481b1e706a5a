package dev.protomolt.core.store;

class InMemoryDriveDirectoryTest extends DriveDirectoryContract {

  private final InMemoryDriveDirectory directory = new InMemoryDriveDirectory();

  @Override
  protected DriveDirectory directory() {
    return directory;
  }

  @Override
  protected AccountStatus accounts() {
    return directory;
  }
}
