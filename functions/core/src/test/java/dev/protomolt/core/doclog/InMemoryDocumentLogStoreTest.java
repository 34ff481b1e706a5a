package dev.protomolt.core.doclog;

class InMemoryDocumentLogStoreTest extends DocumentLogStoreContract {

  @Override
  protected DocumentLogStore newStore() {
    return new InMemoryDocumentLogStore();
  }
}
