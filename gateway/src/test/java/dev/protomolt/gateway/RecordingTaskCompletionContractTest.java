package dev.protomolt.gateway;

import java.util.List;

/** The protocol tests' stand-in for Step Functions holds the {@link TaskCompletion} contract. */
class RecordingTaskCompletionContractTest extends TaskCompletionContract {

  private RecordingTaskCompletion recording;
  private int tokens;

  @Override
  protected TaskCompletion completion() {
    recording = new RecordingTaskCompletion();
    return recording;
  }

  @Override
  protected String waitingToken() {
    return "token-" + ++tokens;
  }

  @Override
  protected Completed completedWith(String token) {
    List<RecordingTaskCompletion.Call> ends =
        recording.calls.stream()
            .filter(c -> c.token().equals(token) && !c.kind().equals("heartbeat"))
            .toList();
    if (ends.size() != 1) {
      throw new AssertionError("token " + token + " completed " + ends.size() + " times: " + ends);
    }
    RecordingTaskCompletion.Call end = ends.getFirst();
    return end.kind().equals("success")
        ? new Completed(true, end.json(), null, null)
        : new Completed(false, null, end.error(), end.json());
  }

  @Override
  protected void endWithoutCompleting(String token) {
    recording.expire(token);
  }
}
