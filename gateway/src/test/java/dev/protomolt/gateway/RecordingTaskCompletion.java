package dev.protomolt.gateway;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The Step Functions side of the protocol tests: it records every completion call and answers
 * like Step Functions does for a token that was completed or has timed out. The adapter over the
 * real API is exercised against the local Step Functions runtime in the end-to-end test.
 */
final class RecordingTaskCompletion implements TaskCompletion {

  record Call(String kind, String token, String error, String json) {}

  final List<Call> calls = new ArrayList<>();
  private final Set<String> gone = new HashSet<>();
  private boolean unreachable;

  synchronized void expire(String token) {
    gone.add(token);
  }

  /** Every later call fails as a network error would, until reachable again. */
  synchronized void unreachable(boolean down) {
    unreachable = down;
  }

  synchronized List<Call> calls(String kind) {
    return calls.stream().filter(c -> c.kind().equals(kind)).toList();
  }

  @Override
  public synchronized void succeed(String taskToken, String outputJson) {
    check(taskToken);
    calls.add(new Call("success", taskToken, null, outputJson));
    gone.add(taskToken);
  }

  @Override
  public synchronized void fail(String taskToken, String error, String causeJson) {
    check(taskToken);
    calls.add(new Call("failure", taskToken, error, causeJson));
    gone.add(taskToken);
  }

  @Override
  public synchronized void heartbeat(String taskToken) {
    check(taskToken);
    calls.add(new Call("heartbeat", taskToken, null, null));
  }

  private void check(String token) {
    if (unreachable) {
      throw new IllegalStateException("Step Functions is unreachable");
    }
    if (gone.contains(token)) {
      throw new TaskTokenGoneException("Task Timed Out: '" + token + "'", null);
    }
  }
}
