package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThatCode;

import dev.protomolt.proto.module.v1.NoOpResult;
import dev.protomolt.proto.module.v1.RetryReason;
import dev.protomolt.proto.module.v1.RetryableFailure;
import dev.protomolt.proto.module.v1.WorkAck;
import dev.protomolt.proto.module.v1.WorkDispatch;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link WorkUnitLogs} promises the gateway: keeping a unit's log lines is best
 * effort, so {@link WorkUnitLogs#record} returns normally whatever it is given: an ack with lines
 * or without, a retryable failure and then the ack that ends the hop, a second ack after the log
 * was sealed, a work unit id or an account that cannot name a log. Losing a log must never cost
 * the unit it belongs to.
 *
 * <p>Subclassed by the document-log implementation the gateway runs with and by {@link
 * WorkUnitLogs#NONE}, the one a gateway without a log store gets.
 */
abstract class WorkUnitLogsContract {

  protected WorkUnitLogs logs;

  /** The implementation under test, with nothing recorded. */
  protected abstract WorkUnitLogs emptyLogs() throws Exception;

  @BeforeEach
  void freshLogs() throws Exception {
    logs = emptyLogs();
  }

  static WorkDispatch dispatch(String unit) {
    return WorkProtocolTest.inline(unit, "t-" + unit, WorkProtocolTest.doc("d-" + unit)).build();
  }

  static WorkAck noOp(String unit, String... lines) {
    WorkAck.Builder ack = WorkAck.newBuilder().setWorkUnitId(unit).setNoOp(NoOpResult.newBuilder());
    for (String line : lines) {
      ack.addLogLines(line);
    }
    return ack.build();
  }

  @Test
  void anAckWithLinesOrWithoutIsRecordedWithoutThrowing() {
    assertThatCode(() -> logs.record(dispatch("u1"), noOp("u1", "parsed 3 pages"), "worker-1"))
        .doesNotThrowAnyException();
    assertThatCode(() -> logs.record(dispatch("u2"), noOp("u2"), "worker-1"))
        .doesNotThrowAnyException();
  }

  @Test
  void aRetriedUnitAndASecondAckAfterTheLogWasSealedAreRecordedWithoutThrowing() {
    WorkAck retry =
        WorkAck.newBuilder()
            .setWorkUnitId("u3")
            .setRetryableFailure(
                RetryableFailure.newBuilder()
                    .setReason(RetryReason.RETRY_REASON_TRANSIENT_DEPENDENCY))
            .addLogLines("the embedder did not answer")
            .build();
    assertThatCode(
            () -> {
              logs.record(dispatch("u3"), retry, "worker-1");
              logs.record(dispatch("u3"), noOp("u3", "answered on the second attempt"), "worker-2");
              logs.record(dispatch("u3"), noOp("u3", "a late duplicate"), "worker-3");
            })
        .doesNotThrowAnyException();
  }

  @Test
  void aUnitOrAnAccountThatCannotNameALogIsRecordedWithoutThrowing() {
    WorkDispatch.Builder foreign = dispatch("u5").toBuilder();
    foreign.getStreamBuilder().getMetadataBuilder().setAccountId("acme corp");
    assertThatCode(
            () -> {
              logs.record(dispatch("u 4"), noOp("u 4", "a line with nowhere to go"), "worker-1");
              logs.record(foreign.build(), noOp("u5", "an account with a space"), "worker-1");
              logs.record(WorkDispatch.getDefaultInstance(), noOp("", "no unit at all"), "");
            })
        .doesNotThrowAnyException();
  }
}
