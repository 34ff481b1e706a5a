/**
 * Ports of the document store: where part bytes go ({@link dev.protomolt.core.store.BlobStore}),
 * where the ledger rows go ({@link dev.protomolt.core.store.LedgerStore}), which bucket an account
 * writes to ({@link dev.protomolt.core.store.DriveDirectory}) and whether an account may write at
 * all ({@link dev.protomolt.core.store.AccountStatus}). Adapters live in functions/repository.
 */
package dev.protomolt.core.store;
