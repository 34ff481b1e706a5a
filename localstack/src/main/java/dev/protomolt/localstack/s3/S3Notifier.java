package dev.protomolt.localstack.s3;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.protomolt.localstack.lambda.LambdaInvocationException;
import dev.protomolt.localstack.lambda.LambdaResult;
import dev.protomolt.localstack.lambda.LocalLambdaRunner;
import dev.protomolt.localstack.lambda.Pause;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * S3 event notifications for the local cloud. Every object created in a bucket that a rule names
 * is journalled before the S3 request returns, then delivered to the rule's function as an
 * {@code S3Event}, one creation at a time in creation order (so in order per key), and marked
 * delivered only after every function returned: at least once, as S3 promises.
 *
 * <p>A function that fails is retried like an asynchronous Lambda invocation: {@link #ATTEMPTS}
 * attempts in all, with growing pauses; after the last one the event goes to
 * {@code failed.jsonl} (the local stand-in for an on-failure destination) and delivery moves on.
 */
public final class S3Notifier implements ObjectCreatedListener, AutoCloseable {

  /** Lambda retries a failed asynchronous invocation twice, so three attempts in all. */
  public static final int ATTEMPTS = 3;

  private static final Logger LOG = Logger.getLogger(S3Notifier.class.getName());

  private final NotificationJournal journal;
  private final Path failedFile;
  private final LocalLambdaRunner lambdas;
  private final String region;
  private final Clock clock;
  private final Pause pause;
  private final Duration firstRetryDelay;
  private final List<S3NotificationRule> rules = new CopyOnWriteArrayList<>();
  private volatile Thread dispatcher;
  private volatile boolean closed;

  public S3Notifier(
      Path dir,
      LocalLambdaRunner lambdas,
      String region,
      Clock clock,
      Pause pause,
      Duration firstRetryDelay) {
    this.journal = NotificationJournal.open(dir);
    this.failedFile = dir.resolve("failed.jsonl");
    this.lambdas = lambdas;
    this.region = region;
    this.clock = clock;
    this.pause = pause;
    this.firstRetryDelay = firstRetryDelay;
  }

  /** Adds a rule; it applies to objects created from now on, as a new bucket notification does. */
  public void addRule(S3NotificationRule rule) {
    rules.add(rule);
  }

  /**
   * Replaces {@code previous} (these very rule objects, as an earlier call added them) by {@code
   * next}, as a bucket's notification configuration written again replaces the one before.
   */
  public synchronized void replaceRules(
      List<S3NotificationRule> previous, List<S3NotificationRule> next) {
    rules.removeIf(r -> previous.stream().anyMatch(p -> p == r));
    rules.addAll(next);
  }

  public List<S3NotificationRule> rules() {
    return List.copyOf(rules);
  }

  @Override
  public void objectCreated(String eventName, String bucket, String key, long size, String eTag) {
    List<String> functions =
        rules.stream()
            .filter(rule -> rule.matches(bucket, key))
            .map(S3NotificationRule::functionName)
            .distinct()
            .toList();
    if (!functions.isEmpty()) {
      journal.append(eventName, bucket, key, size, eTag, clock.instant(), functions);
    }
  }

  /** Starts delivering in a background thread until {@link #close()}. */
  public synchronized void start() {
    if (dispatcher != null) {
      return;
    }
    dispatcher = Thread.ofPlatform().daemon().name("s3-notifier").start(this::deliverForever);
  }

  /**
   * Delivers every pending creation in order, in the calling thread, and returns how many were
   * delivered (or sent to {@code failed.jsonl}). Tests call this instead of {@link #start()}.
   */
  public int deliverPending() throws InterruptedException {
    int count = 0;
    Optional<NotificationJournal.Entry> next;
    while (!closed && (next = journal.next()).isPresent()) {
      deliver(next.get());
      count++;
    }
    return count;
  }

  /** Creations journalled but not yet delivered. */
  public int pendingCount() {
    return journal.pendingCount();
  }

  @Override
  public void close() {
    closed = true;
    Thread running = dispatcher;
    journal.close();
    if (running != null) {
      running.interrupt();
      try {
        running.join(Duration.ofSeconds(10));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void deliverForever() {
    try {
      while (!closed) {
        Optional<NotificationJournal.Entry> next = journal.awaitNext(1_000);
        if (next.isPresent()) {
          deliver(next.get());
        }
      }
    } catch (InterruptedException e) {
      // close() interrupts the dispatcher; anything undelivered stays in the journal.
    } catch (RuntimeException e) {
      if (!closed) {
        LOG.log(Level.SEVERE, "S3 notification delivery stopped", e);
      }
    }
  }

  private void deliver(NotificationJournal.Entry entry) throws InterruptedException {
    ObjectCreated created = entry.created();
    for (String function : entry.functions()) {
      String event = S3EventJson.of(created, region, configurationId(created.bucket(), function));
      String lastError = null;
      Duration delay = firstRetryDelay;
      for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
        lastError = invoke(function, event);
        if (lastError == null || closed) {
          break;
        }
        if (attempt < ATTEMPTS) {
          pause.pause(delay);
          delay = delay.multipliedBy(2);
        }
      }
      if (closed) {
        // Interrupted by shutdown: leave the entry pending so the next start redelivers it.
        throw new InterruptedException("notifier closed during delivery");
      }
      if (lastError != null) {
        recordFailure(function, event, lastError);
      }
    }
    journal.markDelivered(entry);
  }

  /** Returns null when the function returned, else the error document. */
  private String invoke(String function, String event) {
    try {
      LambdaResult result = lambdas.invoke(function, event);
      return switch (result) {
        case LambdaResult.Success success -> null;
        case LambdaResult.Failure failure -> failure.toJson();
      };
    } catch (LambdaInvocationException e) {
      return "{\"errorType\":\""
          + e.errorCode()
          + "\",\"errorMessage\":"
          + TextNode.valueOf(e.getMessage())
          + "}";
    }
  }

  private void recordFailure(String function, String event, String error) {
    String line =
        "{\"function\":\"" + function + "\",\"error\":" + error + ",\"event\":" + event + "}\n";
    try {
      Files.writeString(
          failedFile,
          line,
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot record a failed notification in " + failedFile, e);
    }
    LOG.warning(
        () ->
            "S3 notification to "
                + function
                + " failed "
                + ATTEMPTS
                + " times; recorded in "
                + failedFile
                + ": "
                + error);
  }

  static String configurationId(String bucket, String function) {
    return "protomolt-local-" + bucket + "-" + function;
  }
}
