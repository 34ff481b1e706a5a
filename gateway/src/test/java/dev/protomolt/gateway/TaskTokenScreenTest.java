package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.proto.module.v1.WorkDispatch;
import org.junit.jupiter.api.Test;

/**
 * Token screening over {@link RecordingTaskCompletion}, which holds the same {@link
 * TaskCompletionContract} as the Step Functions adapter on the local runtime.
 */
class TaskTokenScreenTest {

  static WorkDispatch dispatch(String token) {
    return WorkDispatch.newBuilder().setWorkUnitId("u-" + token).setTaskToken(token).build();
  }

  @Test
  void aLiveTokenIsServedAfterOneProbe() {
    RecordingTaskCompletion sfn = new RecordingTaskCompletion();
    assertThat(new TaskTokenScreen(sfn).screen(dispatch("live"))).isEqualTo(ScreenVerdict.SERVE);
    assertThat(sfn.calls("heartbeat"))
        .extracting(RecordingTaskCompletion.Call::token)
        .containsExactly("live");
  }

  @Test
  void aRedeliveredRecordOfASettledHopIsDrainedNamingTheUnit() {
    RecordingTaskCompletion sfn = new RecordingTaskCompletion();
    sfn.succeed("settled", "{}");
    assertThat(new TaskTokenScreen(sfn).screen(dispatch("settled")))
        .isInstanceOfSatisfying(
            ScreenVerdict.Drain.class,
            d -> {
              assertThat(d.reason()).isEqualTo("token-gone");
              assertThat(d.detail()).contains("u-settled", "completed or superseded");
            });
  }

  @Test
  void aSupersededTokenIsDrained() {
    RecordingTaskCompletion sfn = new RecordingTaskCompletion();
    sfn.expire("superseded");
    assertThat(new TaskTokenScreen(sfn).screen(dispatch("superseded")))
        .isInstanceOf(ScreenVerdict.Drain.class);
  }

  @Test
  void anUnreachableStepFunctionsServesTheRecordRatherThanLosingIt() {
    TaskCompletion down =
        new TaskCompletion() {
          @Override
          public void succeed(String taskToken, String outputJson) {
            throw new IllegalStateException("unreachable");
          }

          @Override
          public void fail(String taskToken, String error, String causeJson) {
            throw new IllegalStateException("unreachable");
          }

          @Override
          public void heartbeat(String taskToken) {
            throw new IllegalStateException("Step Functions is unreachable");
          }
        };
    assertThat(new TaskTokenScreen(down).screen(dispatch("any"))).isEqualTo(ScreenVerdict.SERVE);
  }
}
