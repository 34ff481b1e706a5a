package dev.protomolt.gateway;

import dev.protomolt.proto.module.v1.WorkDispatch;
import java.util.Objects;

/**
 * Drains a dispatch whose task token Step Functions no longer holds: the hop was settled already
 * (a record redelivered after a gateway restart, when the settled-token memory is empty), or the
 * token was superseded by a retry's new dispatch. The probe is one {@code SendTaskHeartbeat},
 * which on a Work state without HeartbeatSeconds changes nothing for a live token and adds no
 * history event (decision 1651), so a module never sees a hop that is already settled.
 *
 * <p>It runs last, after the screens that need no call. When Step Functions cannot be reached the
 * record is served: the ack's own probe still refuses a gone token before anything is saved.
 */
public final class TaskTokenScreen implements WorkScreen {

  private final TaskCompletion completion;

  public TaskTokenScreen(TaskCompletion completion) {
    this.completion = Objects.requireNonNull(completion, "completion");
  }

  @Override
  public ScreenVerdict screen(WorkDispatch dispatch) {
    try {
      completion.heartbeat(dispatch.getTaskToken());
      return ScreenVerdict.SERVE;
    } catch (TaskTokenGoneException e) {
      return new ScreenVerdict.Drain(
          "token-gone",
          "the task token of work unit "
              + dispatch.getWorkUnitId()
              + " was completed or superseded: "
              + e.getMessage());
    } catch (RuntimeException unreachable) {
      // Serving costs at most a module's time; draining a live hop would strand it until its
      // queue time to live runs out.
      return ScreenVerdict.SERVE;
    }
  }
}
