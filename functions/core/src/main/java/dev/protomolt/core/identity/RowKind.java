package dev.protomolt.core.identity;

/**
 * What a ledger row stores: an intake staging copy (graph id {@code intake:<accountId>}) or a
 * pipeline hop's copy (any other graph id). Mirrors the {@code row_kind} CHECK constraint.
 */
public enum RowKind {
  INTAKE,
  PIPELINE
}
