package dev.protomolt.core.graph;

class InMemoryDraftStoreTest extends DraftStoreContract {

  @Override
  protected DraftStore emptyStore() {
    return new InMemoryDraftStore();
  }
}
