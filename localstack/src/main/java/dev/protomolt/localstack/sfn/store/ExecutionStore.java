package dev.protomolt.localstack.sfn.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import javax.sql.DataSource;

/** Executions with their checkpoint, their history events and their task tokens. */
public final class ExecutionStore {

  private final Database db;

  public ExecutionStore(DataSource dataSource) {
    this.db = new Database(dataSource);
  }

  public record Execution(
      String arn,
      String stateMachineArn,
      String versionArn,
      String aliasArn,
      String name,
      String definition,
      String roleArn,
      String input,
      String status,
      String output,
      String error,
      String cause,
      Instant startedAt,
      Instant stoppedAt,
      String parentArn,
      String currentState,
      String stateInput,
      String retryCounts,
      Instant retryAt,
      String pendingToken,
      int redriveCount,
      Instant redriveDate,
      String redriveClientToken) {}

  public record HistoryEvent(long id, long previousId, String type, Instant at, String details) {}

  public record Token(
      String token,
      String executionArn,
      String stateName,
      String status,
      Integer heartbeatSeconds,
      Instant heartbeatDeadline,
      Instant timeoutDeadline,
      String output,
      String error,
      String cause) {}

  /** Inserts a new RUNNING execution; false when the name is taken for this state machine. */
  public boolean insert(Execution e) {
    try {
      db.update(
          "INSERT INTO sfn_executions (arn, state_machine_arn, version_arn, alias_arn, name, "
              + "definition, role_arn, input, status, started_at, parent_execution_arn) "
              + "VALUES (?,?,?,?,?,?,?,?,'RUNNING',?,?)",
          e.arn(),
          e.stateMachineArn(),
          e.versionArn(),
          e.aliasArn(),
          e.name(),
          e.definition(),
          e.roleArn(),
          e.input(),
          e.startedAt(),
          e.parentArn());
      return true;
    } catch (Database.StoreException ex) {
      if (ex.uniqueViolation()) {
        return false;
      }
      throw ex;
    }
  }

  public Execution find(String arn) {
    return db.one("SELECT * FROM sfn_executions WHERE arn = ?", ExecutionStore::execution, arn);
  }

  public Execution findByName(String stateMachineArn, String name) {
    return db.one(
        "SELECT * FROM sfn_executions WHERE state_machine_arn = ? AND name = ?",
        ExecutionStore::execution,
        stateMachineArn,
        name);
  }

  /**
   * Executions of a state machine (or of one version / alias of it), newest first.
   *
   * @param redriven true for executions redriven at least once, false for never redriven, null
   *     for both
   */
  public List<Execution> list(
      String stateMachineArn, String versionArn, String aliasArn, String status, Boolean redriven) {
    return db.query(
        "SELECT * FROM sfn_executions WHERE state_machine_arn = ? "
            + "AND (?::text IS NULL OR version_arn = ?) AND (?::text IS NULL OR alias_arn = ?) "
            + "AND (?::text IS NULL OR status = ?) "
            + "AND (?::boolean IS NULL OR (redrive_count > 0) = ?) ORDER BY started_at DESC, arn",
        ExecutionStore::execution,
        stateMachineArn,
        versionArn,
        versionArn,
        aliasArn,
        aliasArn,
        status,
        status,
        redriven,
        redriven);
  }

  /**
   * Reopens a FAILED, ABORTED or TIMED_OUT execution for a redrive and appends its
   * ExecutionRedriven event in one transaction: the first of two concurrent redrives wins, the
   * other finds it RUNNING. The checkpoint (current state and its input) is kept, since that is
   * where the redrive re-enters; the retry counters and the last stop's error are cleared.
   *
   * @return false when the execution was no longer in one of those statuses
   */
  public boolean reopenForRedrive(
      String arn, Instant at, String clientToken, long eventId, String details) {
    return db.inTransaction(
        "redrive execution " + arn,
        c -> {
          if (Database.update(
                  c,
                  "UPDATE sfn_executions SET status = 'RUNNING', output = NULL, error = NULL, "
                      + "cause = NULL, stopped_at = NULL, retry_counts = '[]', retry_at = NULL, "
                      + "pending_token = NULL, redrive_count = redrive_count + 1, "
                      + "redrive_date = ?, redrive_client_token = ? WHERE arn = ? "
                      + "AND status IN ('FAILED', 'ABORTED', 'TIMED_OUT')",
                  at,
                  clientToken,
                  arn)
              != 1) {
            return false;
          }
          Database.update(
              c,
              "INSERT INTO sfn_history (execution_arn, event_id, previous_event_id, "
                  + "type, occurred_at, details) VALUES (?,?,?,?,?,?)",
              arn,
              eventId,
              eventId - 1,
              "ExecutionRedriven",
              at,
              details);
          return true;
        });
  }

  public List<Execution> running() {
    return db.query(
        "SELECT * FROM sfn_executions WHERE status = 'RUNNING' ORDER BY started_at",
        ExecutionStore::execution);
  }

  /** Records the top-level state being run, so a restart re-enters it with the same input. */
  public void checkpoint(
      String arn,
      String state,
      String stateInput,
      String retryCounts,
      Instant retryAt,
      String pendingToken) {
    db.update(
        "UPDATE sfn_executions SET current_state = ?, state_input = ?, retry_counts = ?, "
            + "retry_at = ?, pending_token = ? WHERE arn = ? AND status = 'RUNNING'",
        state,
        stateInput,
        retryCounts,
        retryAt,
        pendingToken,
        arn);
  }

  /**
   * Closes a RUNNING execution and appends its terminal history event in one transaction, so no
   * reader sees the final status without the event. False when it was already closed.
   */
  public boolean closeWithEvent(
      String arn,
      String status,
      String output,
      String error,
      String cause,
      Instant at,
      HistoryEvent event) {
    return db.inTransaction(
        "close execution " + arn,
        c -> {
          if (Database.update(
                  c,
                  "UPDATE sfn_executions SET status = ?, output = ?, error = ?, "
                      + "cause = ?, stopped_at = ?, pending_token = NULL WHERE arn = ? "
                      + "AND status = 'RUNNING'",
                  status,
                  output,
                  error,
                  cause,
                  at,
                  arn)
              != 1) {
            return false;
          }
          Database.update(
              c,
              "INSERT INTO sfn_history (execution_arn, event_id, previous_event_id, "
                  + "type, occurred_at, details) VALUES (?,?,?,?,?,?)",
              arn,
              event.id(),
              event.previousId(),
              event.type(),
              event.at(),
              event.details());
          return true;
        });
  }

  public void appendHistory(String executionArn, HistoryEvent event) {
    db.update(
        "INSERT INTO sfn_history (execution_arn, event_id, previous_event_id, type, "
            + "occurred_at, details) VALUES (?,?,?,?,?,?)",
        executionArn,
        event.id(),
        event.previousId(),
        event.type(),
        event.at(),
        event.details());
  }

  public List<HistoryEvent> history(String executionArn) {
    return db.query(
        "SELECT * FROM sfn_history WHERE execution_arn = ? ORDER BY event_id",
        rs ->
            new HistoryEvent(
                rs.getLong("event_id"),
                rs.getLong("previous_event_id"),
                rs.getString("type"),
                Database.instant(rs, "occurred_at"),
                rs.getString("details")),
        executionArn);
  }

  public long lastEventId(String executionArn) {
    Long id =
        db.one(
            "SELECT max(event_id) AS m FROM sfn_history WHERE execution_arn = ?",
            rs -> rs.getLong("m"),
            executionArn);
    return id == null ? 0 : id;
  }

  public void insertToken(Token t, Instant createdAt) {
    db.update(
        "INSERT INTO sfn_task_tokens (token, execution_arn, state_name, status, "
            + "heartbeat_seconds, heartbeat_deadline, timeout_deadline, created_at) "
            + "VALUES (?,?,?,'WAITING',?,?,?,?)",
        t.token(),
        t.executionArn(),
        t.stateName(),
        t.heartbeatSeconds(),
        t.heartbeatDeadline(),
        t.timeoutDeadline(),
        createdAt);
  }

  public Token findToken(String token) {
    return db.one("SELECT * FROM sfn_task_tokens WHERE token = ?", ExecutionStore::token, token);
  }

  public List<Token> waitingTokens() {
    return db.query(
        "SELECT * FROM sfn_task_tokens WHERE status = 'WAITING'", ExecutionStore::token);
  }

  /** Closes a WAITING token with its outcome; false when it was already closed. */
  public boolean closeToken(
      String token, String status, String output, String error, String cause, Instant at) {
    return db.update(
            "UPDATE sfn_task_tokens SET status = ?, output = ?, error = ?, cause = ?, "
                + "closed_at = ? WHERE token = ? AND status = 'WAITING'",
            status,
            output,
            error,
            cause,
            at,
            token)
        == 1;
  }

  /**
   * Times a WAITING token out, but only if its persisted deadline has really passed: a timer
   * armed before a heartbeat moved the deadline (or before a restart) must not close it.
   *
   * @param heartbeat true for the heartbeat deadline, false for the task timeout
   */
  public boolean expireToken(
      String token, boolean heartbeat, String error, String cause, Instant now) {
    String deadline = heartbeat ? "heartbeat_deadline" : "timeout_deadline";
    return db.update(
            "UPDATE sfn_task_tokens SET status = 'TIMED_OUT', error = ?, cause = ?, "
                + "closed_at = ? WHERE token = ? AND status = 'WAITING' AND "
                + deadline
                + " <= ?",
            error,
            cause,
            now,
            token,
            now)
        == 1;
  }

  /** Moves a WAITING token's heartbeat deadline; false when it is no longer waiting. */
  public boolean heartbeat(String token, Instant deadline) {
    return db.update(
            "UPDATE sfn_task_tokens SET heartbeat_deadline = ? WHERE token = ? "
                + "AND status = 'WAITING'",
            deadline,
            token)
        == 1;
  }

  /** Closes every WAITING token of an execution that has ended. */
  public void closeTokensOf(String executionArn, Instant at) {
    db.update(
        "UPDATE sfn_task_tokens SET status = 'CLOSED', closed_at = ? "
            + "WHERE execution_arn = ? AND status = 'WAITING'",
        at,
        executionArn);
  }

  private static Execution execution(ResultSet rs) throws SQLException {
    return new Execution(
        rs.getString("arn"),
        rs.getString("state_machine_arn"),
        rs.getString("version_arn"),
        rs.getString("alias_arn"),
        rs.getString("name"),
        rs.getString("definition"),
        rs.getString("role_arn"),
        rs.getString("input"),
        rs.getString("status"),
        rs.getString("output"),
        rs.getString("error"),
        rs.getString("cause"),
        Database.instant(rs, "started_at"),
        Database.instant(rs, "stopped_at"),
        rs.getString("parent_execution_arn"),
        rs.getString("current_state"),
        rs.getString("state_input"),
        rs.getString("retry_counts"),
        Database.instant(rs, "retry_at"),
        rs.getString("pending_token"),
        rs.getInt("redrive_count"),
        Database.instant(rs, "redrive_date"),
        rs.getString("redrive_client_token"));
  }

  private static Token token(ResultSet rs) throws SQLException {
    return new Token(
        rs.getString("token"),
        rs.getString("execution_arn"),
        rs.getString("state_name"),
        rs.getString("status"),
        Database.nullableInt(rs, "heartbeat_seconds"),
        Database.instant(rs, "heartbeat_deadline"),
        Database.instant(rs, "timeout_deadline"),
        rs.getString("output"),
        rs.getString("error"),
        rs.getString("cause"));
  }
}
