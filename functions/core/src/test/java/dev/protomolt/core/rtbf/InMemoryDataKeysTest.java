package dev.protomolt.core.rtbf;

class InMemoryDataKeysTest extends DataKeysContract {

  @Override
  protected DataKeys freshKeys() {
    return new InMemoryDataKeys();
  }
}
