package dev.protomolt.names;

import java.util.Arrays;
import java.util.Optional;

/**
 * The platform's Kafka topics, created with the environment (the stack's topics custom resource
 * and the local cloud). Module work topics are {@value #MODULE_TOPIC_PREFIX}{@code <service>};
 * dead-letter topics, {@code pipestream.<cluster>.<graph>.<node>.dlq}, are created at activation.
 */
public enum PlatformTopic {
  GRAPH_UPDATES("graph-updates"),
  PIPELINE_EVENTS("pipeline-events"),
  INDEXING_RECEIPTS("indexing-receipts"),
  STORAGE_PURGE("storage-purge"),
  RECLAIM_REQUESTS("reclaim-requests"),
  DOCUMENT_DELETED("document-deleted"),
  ACCOUNT_EVENTS("account-events"),
  /** Canary records of the gateway's Kafka probe: produced and consumed back by the gateway only. */
  DIAGNOSTICS("diagnostics-canary");

  public static final String MODULE_TOPIC_PREFIX = "pipestream.module.";

  /** IAM resource pattern matching every dead-letter topic. */
  public static final String DLQ_TOPIC_PATTERN = "pipestream.*.dlq";

  private final String topicName;

  PlatformTopic(String topicName) {
    this.topicName = topicName;
  }

  public String topicName() {
    return topicName;
  }

  public static String moduleTopic(String service) {
    return MODULE_TOPIC_PREFIX + service;
  }

  public static Optional<PlatformTopic> byName(String topicName) {
    return Arrays.stream(values()).filter(t -> t.topicName.equals(topicName)).findFirst();
  }
}
