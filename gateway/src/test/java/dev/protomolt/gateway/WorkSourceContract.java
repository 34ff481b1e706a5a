package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link WorkSource} promises the gateway. Records for a module are served one at a
 * time, oldest first, each to one caller; a popped record stays held until it is settled (then it
 * is never served again) or re-buffered (then it is served next, before anything newer); a module
 * never sees another module's records; and {@link WorkSource#arrival} completes once a record may
 * be there, at once when one is buffered, so a waiting Hello wakes without polling.
 *
 * <p>Subclassed by the in-memory {@link BufferedWorkSource} and by the {@link KafkaWorkSource} on
 * an in-process KRaft broker; each hands over a fresh source for two modules with nothing
 * buffered, and a way to make a record arrive.
 */
abstract class WorkSourceContract {

  /** How long a test waits for an arrival to be signalled; a bound for failing only. */
  static final long PATIENCE_SECONDS = 60;

  protected WorkSource source;
  protected String module;
  protected String other;

  /** A source serving exactly {@code module} and {@code other}, with nothing buffered. */
  protected abstract WorkSource emptySource(String module, String other) throws Exception;

  /**
   * Makes a record with {@code key} arrive for {@code module} and returns once the source holds it
   * buffered (offered to the in-memory queue, or produced and fetched from the topic).
   */
  protected abstract void arrive(String module, String key) throws Exception;

  /** Module ids unique to one test, so no test sees records or offsets another one left. */
  protected abstract String uniqueModuleId(String stem);

  @BeforeEach
  void freshSource() throws Exception {
    module = uniqueModuleId("served");
    other = uniqueModuleId("other");
    source = emptySource(module, other);
  }

  @AfterEach
  void closeSource() throws Exception {
    if (source instanceof AutoCloseable closeable) {
      closeable.close();
    }
  }

  private PendingWork pop() {
    Optional<PendingWork> w = source.poll(module);
    assertThat(w).as("a record buffered for %s", module).isPresent();
    return w.get();
  }

  @Test
  void anEmptySourceServesNothingAndItsArrivalWaits() {
    assertThat(source.poll(module)).isEmpty();
    CompletableFuture<Void> arrival = source.arrival(module);
    assertThat(arrival).as("nothing has arrived").isNotDone();
    arrival.cancel(false);
  }

  @Test
  void recordsAreServedOldestFirstEachOnceWithTheirKeyAndPayload() throws Exception {
    arrive(module, "a");
    arrive(module, "b");
    arrive(module, "c");

    PendingWork a = pop();
    assertThat(a.moduleId()).isEqualTo(module);
    assertThat(a.key()).isEqualTo("a");
    assertThat(new String(a.payload(), StandardCharsets.UTF_8)).isEqualTo(payloadOf("a"));
    PendingWork b = pop();
    PendingWork c = pop();
    assertThat(List.of(b.key(), c.key())).containsExactly("b", "c");
    assertThat(source.poll(module)).as("every record was served once").isEmpty();
    source.settle(a);
    source.settle(b);
    source.settle(c);
    assertThat(source.poll(module)).isEmpty();
  }

  @Test
  void aRebufferedRecordIsServedNextBeforeNewerOnes() throws Exception {
    arrive(module, "first");
    arrive(module, "second");

    PendingWork first = pop();
    source.rebuffer(first);
    PendingWork again = pop();
    assertThat(again.key()).isEqualTo("first");
    assertThat(new String(again.payload(), StandardCharsets.UTF_8)).isEqualTo(payloadOf("first"));
    source.settle(again);
    assertThat(pop().key()).isEqualTo("second");
  }

  @Test
  void aSettledRecordIsNeverServedAgain() throws Exception {
    arrive(module, "done");
    source.settle(pop());
    assertThat(source.poll(module)).isEmpty();
    arrive(module, "next");
    assertThat(pop().key()).as("only what arrived after").isEqualTo("next");
  }

  @Test
  void anArrivalCompletesWhenARecordArrivesAndAtOnceWhenOneIsBuffered() throws Exception {
    CompletableFuture<Void> waiting = source.arrival(module);
    assertThat(waiting).isNotDone();
    arrive(module, "wake");
    waiting.get(PATIENCE_SECONDS, TimeUnit.SECONDS);
    assertThat(source.arrival(module)).as("a record is buffered").isDone();
    assertThat(pop().key()).isEqualTo("wake");
  }

  @Test
  void aRebufferWakesAWaitingArrival() throws Exception {
    arrive(module, "back");
    PendingWork back = pop();
    CompletableFuture<Void> waiting = source.arrival(module);
    assertThat(waiting).as("the only record is in flight").isNotDone();
    source.rebuffer(back);
    waiting.get(PATIENCE_SECONDS, TimeUnit.SECONDS);
    assertThat(pop().key()).isEqualTo("back");
  }

  @Test
  void anAbandonedArrivalDoesNotStopTheNextOneFromWaking() throws Exception {
    source.arrival(module).cancel(false);
    CompletableFuture<Void> waiting = source.arrival(module);
    arrive(module, "after");
    waiting.get(PATIENCE_SECONDS, TimeUnit.SECONDS);
    assertThat(pop().key()).isEqualTo("after");
  }

  @Test
  void aModuleNeverSeesAnotherModulesRecords() throws Exception {
    CompletableFuture<Void> otherArrival = source.arrival(other);
    arrive(module, "mine");
    assertThat(source.poll(other)).isEmpty();
    assertThat(otherArrival).as("a record for another module wakes nobody here").isNotDone();
    otherArrival.cancel(false);
    assertThat(pop().key()).isEqualTo("mine");
  }

  /** The payload {@link #arrive} gives the record with {@code key}. */
  static String payloadOf(String key) {
    return "payload of " + key;
  }
}
