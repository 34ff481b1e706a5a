package dev.protomolt.core.graph;

class InMemoryGraphStoreTest extends GraphStoreContract {

  @Override
  protected GraphStore emptyStore() {
    return new InMemoryGraphStore();
  }
}
