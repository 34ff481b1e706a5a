package dev.protomolt.localstack.kafka;

import java.time.Duration;
import java.util.List;

/**
 * An MSK event-source mapping: records on {@code topics} are delivered to {@code functionName}
 * in batches of at most {@code batchSize}, gathered for up to {@code batchingWindow} after the
 * first record of a batch arrives, consuming as the group {@code consumerGroupId}. As in
 * AWS the group id defaults to a unique id per mapping, and a new group starts at the oldest
 * record ({@code TRIM_HORIZON}), so nothing produced before the mapping existed is skipped.
 */
public record MskEventSourceMapping(
    String functionName,
    List<String> topics,
    String consumerGroupId,
    int batchSize,
    Duration batchingWindow) {

  /** Lambda's default batch size for Kafka sources. */
  public static final int DEFAULT_BATCH_SIZE = 100;

  /** Lambda's largest batch size for Kafka sources. */
  public static final int MAX_BATCH_SIZE = 10_000;

  /**
   * Lambda's batching window for Kafka sources when {@code MaximumBatchingWindowInSeconds} is not
   * set: half a second, which no whole-second setting can express.
   */
  public static final Duration DEFAULT_BATCHING_WINDOW = Duration.ofMillis(500);

  /** Lambda's longest batching window. */
  public static final Duration MAX_BATCHING_WINDOW = Duration.ofSeconds(300);

  /** A mapping with Lambda's default batching window. */
  public MskEventSourceMapping(
      String functionName, List<String> topics, String consumerGroupId, int batchSize) {
    this(functionName, topics, consumerGroupId, batchSize, DEFAULT_BATCHING_WINDOW);
  }

  public MskEventSourceMapping {
    if (functionName == null || functionName.isBlank()) {
      throw new IllegalArgumentException("functionName must not be blank");
    }
    if (topics == null
        || topics.isEmpty()
        || topics.stream().anyMatch(t -> t == null || t.isBlank())) {
      throw new IllegalArgumentException("topics must name at least one topic, none blank");
    }
    topics = List.copyOf(topics);
    if (consumerGroupId == null || consumerGroupId.isBlank()) {
      consumerGroupId = "protomolt-local-" + functionName + "-" + String.join("+", topics);
    }
    if (batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
      throw new IllegalArgumentException(
          "batchSize must be between 1 and " + MAX_BATCH_SIZE + ", was " + batchSize);
    }
    if (batchingWindow == null
        || batchingWindow.isNegative()
        || batchingWindow.compareTo(MAX_BATCHING_WINDOW) > 0) {
      throw new IllegalArgumentException(
          "batchingWindow must be between 0 and 300 seconds, was " + batchingWindow);
    }
  }

  public static MskEventSourceMapping of(String functionName, String... topics) {
    return new MskEventSourceMapping(functionName, List.of(topics), null, DEFAULT_BATCH_SIZE);
  }
}
