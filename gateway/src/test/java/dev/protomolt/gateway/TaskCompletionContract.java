package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link TaskCompletion} promises the gateway. A waiting task's token completes it
 * once: success hands the task its output, failure its error name and cause, and a heartbeat
 * keeps it waiting. Once the task is completed, or has gone away on its own (its execution ended
 * or the task timed out), every call with its token throws {@link TaskTokenGoneException}, so the
 * gateway settles the unit instead of retrying. A cause of any length is accepted.
 *
 * <p>Subclassed by {@link SfnTaskCompletion} against real callback tasks on the local Step
 * Functions runtime and by the {@link RecordingTaskCompletion} the protocol tests use.
 */
abstract class TaskCompletionContract {

  /** What the waiting side of a token saw when it was completed. */
  record Completed(boolean succeeded, String output, String error, String cause) {}

  static final String OUTPUT = "{\"workUnitId\":\"u-1\",\"outcome\":\"CONTINUE\",\"stream\":{}}";

  protected TaskCompletion completion;

  /** The implementation under test. */
  protected abstract TaskCompletion completion() throws Exception;

  /** The token of a task that is waiting now, a new one per call. */
  protected abstract String waitingToken() throws Exception;

  /** What the task of {@code token} received, once it was completed through {@link #completion}. */
  protected abstract Completed completedWith(String token) throws Exception;

  /** Makes the task of {@code token} go away without its token being used. */
  protected abstract void endWithoutCompleting(String token) throws Exception;

  @BeforeEach
  void freshCompletion() throws Exception {
    completion = completion();
  }

  @Test
  void successHandsTheTaskItsOutput() throws Exception {
    String token = waitingToken();
    completion.succeed(token, OUTPUT);
    Completed seen = completedWith(token);
    assertThat(seen.succeeded()).as("%s", seen).isTrue();
    assertThat(seen.output()).isEqualTo(OUTPUT);
  }

  @Test
  void failureHandsTheTaskItsErrorAndCause() throws Exception {
    String token = waitingToken();
    completion.fail(token, "Module.Reject", "{\"reason\":\"REJECT_REASON_UNSUPPORTED_CONTENT\"}");
    Completed seen = completedWith(token);
    assertThat(seen.succeeded()).as("%s", seen).isFalse();
    assertThat(seen.error()).isEqualTo("Module.Reject");
    assertThat(seen.cause()).isEqualTo("{\"reason\":\"REJECT_REASON_UNSUPPORTED_CONTENT\"}");
  }

  @Test
  void heartbeatsKeepTheTaskWaitingForItsCompletion() throws Exception {
    String token = waitingToken();
    completion.heartbeat(token);
    completion.heartbeat(token);
    completion.succeed(token, OUTPUT);
    assertThat(completedWith(token).succeeded()).isTrue();
  }

  @Test
  void aSucceededTokenIsGoneForEveryLaterCall() throws Exception {
    String token = waitingToken();
    completion.succeed(token, OUTPUT);
    assertGone(token);
  }

  @Test
  void aFailedTokenIsGoneForEveryLaterCall() throws Exception {
    String token = waitingToken();
    completion.fail(token, "Module.Failed", "{}");
    assertGone(token);
  }

  @Test
  void theTokenOfATaskThatWentAwayIsGone() throws Exception {
    String token = waitingToken();
    endWithoutCompleting(token);
    assertGone(token);
  }

  @Test
  void aCauseOfAnyLengthIsAccepted() throws Exception {
    String token = waitingToken();
    String cause = "{\"detail\":\"" + "x".repeat(40_000) + "\"}";
    completion.fail(token, "Module.Failed", cause);
    Completed seen = completedWith(token);
    assertThat(seen.error()).isEqualTo("Module.Failed");
    assertThat(cause)
        .as("what the task received is the cause, cut at most")
        .startsWith(seen.cause());
    assertThat(seen.cause().length()).isGreaterThanOrEqualTo(32_768);
  }

  private void assertGone(String token) {
    assertThatThrownBy(() -> completion.succeed(token, OUTPUT))
        .isInstanceOf(TaskTokenGoneException.class);
    assertThatThrownBy(() -> completion.fail(token, "Module.Reject", "{}"))
        .isInstanceOf(TaskTokenGoneException.class);
    assertThatThrownBy(() -> completion.heartbeat(token))
        .isInstanceOf(TaskTokenGoneException.class);
  }
}
