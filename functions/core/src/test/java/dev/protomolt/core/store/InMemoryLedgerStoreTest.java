package dev.protomolt.core.store;

class InMemoryLedgerStoreTest extends LedgerStoreContract {

  private final InMemoryLedgerStore ledger = new InMemoryLedgerStore();

  @Override
  protected LedgerStore ledger() {
    return ledger;
  }
}
