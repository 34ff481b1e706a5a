package dev.protomolt.core.store;

import java.util.Objects;

/**
 * What {@link LedgerStore#commit} did.
 *
 * @param applied true when the save's state is now the one stored at its address; false when a save
 *     with a newer write token had already committed there, so this save's objects are orphans
 * @param stored the row stored at the address after the commit: this save's when applied, the
 *     newer save's otherwise
 */
public record SaveCommit(boolean applied, PipeDocRecord stored) {
  public SaveCommit {
    Objects.requireNonNull(stored, "stored");
  }
}
