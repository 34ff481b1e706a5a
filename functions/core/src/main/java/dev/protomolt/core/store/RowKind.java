package dev.protomolt.core.store;

/** Which kind of stored state a ledger row is; the database refuses rows whose identity disagrees. */
public enum RowKind {
  /** The copy as it arrived, in the synthetic graph {@code intake:<accountId>}. */
  INTAKE,
  /** A copy staged at a node of a real pipeline graph. */
  PIPELINE;

  public DriveKind driveKind() {
    return this == INTAKE ? DriveKind.INTAKE : DriveKind.PIPELINE;
  }
}
