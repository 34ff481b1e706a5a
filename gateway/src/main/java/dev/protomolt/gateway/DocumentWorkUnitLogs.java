package dev.protomolt.gateway;

import dev.protomolt.core.doclog.DocumentLog;
import dev.protomolt.core.doclog.DocumentLogRefusal;
import dev.protomolt.core.doclog.DocumentLogState;
import dev.protomolt.core.doclog.LogKey;
import dev.protomolt.core.doclog.LogPartIndex;
import dev.protomolt.core.doclog.WindowSpec;
import dev.protomolt.proto.module.v1.LogText;
import dev.protomolt.proto.module.v1.WorkAck;
import dev.protomolt.proto.module.v1.WorkDispatch;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Work-unit logs as document logs (seed 004): the log lines of every settled ack are appended to
 * the document {@code logs/work-units/<work_unit_id>} in the collection of the document's account
 * (decision 0862), cut into 1000/150 windows as they arrive and indexed window by window.
 *
 * <p>A module on the current SDK streams its log instead: each heartbeat carries the text written
 * since the last one at its offset from {@code WorkUnit.log_offset} (the log's length when the
 * attempt was served), so a part is written and indexed the moment its window completes, a repeat
 * is skipped by offset and a gap is refused. The ack carries the rest; a line naming the attempt
 * and its outcome follows, then the seal when the hop ends.
 *
 * <p>One ack of an older module appends one block: a header naming the attempt, the worker
 * instance and the outcome, then the lines. A work unit retried after a retryable failure keeps
 * one log across its attempts, since the work unit id is stable per hop. The log is sealed when the
 * ack ends the hop (continue, no-op, reject): sealing writes the trailing window, so even a short
 * log becomes searchable.
 */
public final class DocumentWorkUnitLogs implements WorkUnitLogs {

  private static final System.Logger LOG = System.getLogger(DocumentWorkUnitLogs.class.getName());

  /** The collection of a unit whose account cannot name one (blank or not key-safe). */
  static final String UNOWNED = LogKey.UNOWNED;

  private static final int ATTEMPTS = 3;

  private final DocumentLog log;
  private final LogPartIndex index;
  private final AtomicLong linesKept = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();

  public DocumentWorkUnitLogs(DocumentLog log, LogPartIndex index) {
    this.log = Objects.requireNonNull(log, "log: must not be null");
    this.index = Objects.requireNonNull(index, "index: must not be null");
  }

  @Override
  public long logOffset(WorkDispatch dispatch) {
    try {
      return log.status(keyOf(dispatch)).map(DocumentLogState::length).orElse(0L);
    } catch (RuntimeException e) {
      // Only a read: the unit is served, and the ack's attempt to keep the text counts a failure.
      LOG.log(
          System.Logger.Level.DEBUG,
          "the log of work unit " + dispatch.getWorkUnitId() + " could not be read; serving it",
          e);
      return 0;
    }
  }

  @Override
  public void stream(WorkDispatch dispatch, LogText text) {
    try {
      LogKey key = keyOf(dispatch);
      log.open(key, WindowSpec.DEFAULT);
      log.append(key, text.getText(), text.getOffset());
    } catch (RuntimeException e) {
      failures.incrementAndGet();
      LOG.log(
          System.Logger.Level.WARNING,
          "streamed log text of work unit "
              + dispatch.getWorkUnitId()
              + " at offset "
              + text.getOffset()
              + " was not kept; the unit itself goes on",
          e);
    }
  }

  @Override
  public void record(WorkDispatch dispatch, WorkAck ack, String instanceId) {
    if (ack.hasLog()) {
      recordStreamed(dispatch, ack, instanceId);
    }
    if (ack.getLogLinesCount() == 0) {
      return;
    }
    try {
      LogKey key = keyOf(dispatch);
      String block = block(dispatch, ack, instanceId);
      for (int attempt = 1; ; attempt++) {
        try {
          DocumentLogState state = log.open(key, WindowSpec.DEFAULT);
          // Appending at the length just read: a concurrent writer of the same unit (a superseded
          // token's stream) makes the append conflict, and the next round appends after it.
          log.append(key, block, state.length());
          break;
        } catch (DocumentLogRefusal refusal) {
          if (refusal.reason() == DocumentLogRefusal.Reason.SEALED || attempt == ATTEMPTS) {
            throw refusal;
          }
        }
      }
      if (ack.getResultCase() != WorkAck.ResultCase.RETRYABLE_FAILURE) {
        log.seal(key);
      }
      linesKept.addAndGet(ack.getLogLinesCount());
    } catch (RuntimeException e) {
      failures.incrementAndGet();
      LOG.log(
          System.Logger.Level.WARNING,
          "the log lines of work unit "
              + dispatch.getWorkUnitId()
              + " were not kept; the unit itself is settled",
          e);
    }
  }

  /**
   * The end of a streamed attempt: the rest of the text at its offset, then a line naming the
   * attempt and its outcome, then the seal when the hop ends. A unit that streamed nothing, by
   * heartbeat or ack, gets no log.
   */
  private void recordStreamed(WorkDispatch dispatch, WorkAck ack, String instanceId) {
    try {
      LogKey key = keyOf(dispatch);
      if (!ack.getLog().getText().isEmpty()) {
        log.open(key, WindowSpec.DEFAULT);
        log.append(key, ack.getLog().getText(), ack.getLog().getOffset());
      }
      Optional<DocumentLogState> state = log.status(key);
      if (state.isEmpty() || state.get().sealed()) {
        return;
      }
      log.append(key, footer(dispatch, ack, instanceId), state.get().length());
      if (ack.getResultCase() != WorkAck.ResultCase.RETRYABLE_FAILURE) {
        log.seal(key);
      }
    } catch (RuntimeException e) {
      failures.incrementAndGet();
      LOG.log(
          System.Logger.Level.WARNING,
          "the streamed log of work unit "
              + dispatch.getWorkUnitId()
              + " was not completed; the unit itself is settled",
          e);
    }
  }

  private static String footer(WorkDispatch dispatch, WorkAck ack, String instanceId) {
    return "# end of attempt "
        + dispatch.getAttempt()
        + " of node "
        + dispatch.getNodeId()
        + " on "
        + (instanceId.isBlank() ? "an unnamed worker" : instanceId)
        + ": "
        + outcomeOf(ack)
        + "\n";
  }

  /** The log of one work unit so far, whole; empty if the unit has logged nothing. */
  public Optional<String> read(String accountId, String workUnitId) {
    return log.read(LogKey.workUnitLog(collectionOf(accountId), workUnitId));
  }

  /** Windows of work-unit logs holding every word of {@code terms}. */
  public List<LogPartIndex.Hit> search(String terms, int limit) {
    return index.query(terms, limit);
  }

  /** Log lines kept so far. */
  public long linesKept() {
    return linesKept.get();
  }

  /** Acks whose lines could not be kept. */
  public long failures() {
    return failures.get();
  }

  static LogKey keyOf(WorkDispatch dispatch) {
    return LogKey.workUnitLog(collectionOf(accountOf(dispatch)), dispatch.getWorkUnitId());
  }

  private static String accountOf(WorkDispatch dispatch) {
    String account = dispatch.getStream().getMetadata().getAccountId();
    if (account.isBlank() && dispatch.getStream().hasDocument()) {
      account = dispatch.getStream().getDocument().getOwnership().getAccountId();
    }
    if (account.isBlank() && dispatch.getStream().hasDocumentRef()) {
      account = dispatch.getStream().getDocumentRef().getAccountId();
    }
    return account;
  }

  static String collectionOf(String accountId) {
    // The one rule the console's reader of these logs applies too.
    return LogKey.accountCollection(accountId);
  }

  private static String block(WorkDispatch dispatch, WorkAck ack, String instanceId) {
    StringBuilder text =
        new StringBuilder("# attempt ")
            .append(dispatch.getAttempt())
            .append(" of node ")
            .append(dispatch.getNodeId())
            .append(" on ")
            .append(instanceId.isBlank() ? "an unnamed worker" : instanceId)
            .append(": ")
            .append(outcomeOf(ack))
            .append('\n');
    for (String line : ack.getLogLinesList()) {
      text.append(line).append('\n');
    }
    return text.toString();
  }

  private static String outcomeOf(WorkAck ack) {
    return switch (ack.getResultCase()) {
      case UPDATED_PAYLOAD -> "CONTINUE";
      case NO_OP -> "NO_OP " + ack.getNoOp().getReason();
      case REJECT -> "REJECT " + ack.getReject().getReason();
      case RETRYABLE_FAILURE -> "RETRY " + ack.getRetryableFailure().getReason();
      case RESULT_NOT_SET -> "NO RESULT";
    };
  }
}
