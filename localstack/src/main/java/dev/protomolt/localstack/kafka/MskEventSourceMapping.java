package dev.protomolt.localstack.kafka;

import java.util.List;

/**
 * An MSK event-source mapping: records on {@code topics} are delivered to {@code functionName}
 * in batches of at most {@code batchSize}, consuming as the group {@code consumerGroupId}. As in
 * AWS the group id defaults to a unique id per mapping, and a new group starts at the oldest
 * record ({@code TRIM_HORIZON}), so nothing produced before the mapping existed is skipped.
 */
public record MskEventSourceMapping(
    String functionName, List<String> topics, String consumerGroupId, int batchSize) {

  /** Lambda's default batch size for Kafka sources. */
  public static final int DEFAULT_BATCH_SIZE = 100;

  /** Lambda's largest batch size for Kafka sources. */
  public static final int MAX_BATCH_SIZE = 10_000;

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
  }

  public static MskEventSourceMapping of(String functionName, String... topics) {
    return new MskEventSourceMapping(functionName, List.of(topics), null, DEFAULT_BATCH_SIZE);
  }
}
