package dev.protomolt.core.orchestration;

import java.time.Instant;
import java.util.List;

/**
 * Where admission records what it did with an intake, one record per (document, graph version);
 * an unbound datasource is recorded with an empty graph id. Recording the same key again replaces
 * the earlier record, so repeated notifications leave one row.
 */
public interface AdmissionLog {

  void record(AdmissionRecord record);

  /** Every record of one document, ordered by graph id and version. */
  List<AdmissionRecord> forDocument(String accountId, String datasourceId, String docId);

  /** What admission did for one graph (or, with an empty graph id, for none). */
  enum Outcome {
    /** A new execution started on the pinned version. */
    STARTED,
    /** The execution already existed: a repeated notification converged on it. */
    CONVERGED,
    /** The datasource feeds no active graph of the account. */
    UNBOUND,
    /** The graph is active in the store but its alias is not deployed yet; the intake is retried. */
    UNDEPLOYED
  }

  record AdmissionRecord(
      String accountId,
      String datasourceId,
      String docId,
      String graphId,
      long graphVersion,
      Outcome outcome,
      String executionName,
      String executionArn,
      String detail,
      Instant recordedAt) {}
}
