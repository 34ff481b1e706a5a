package dev.protomolt.core.orchestration;

import dev.protomolt.names.PlatformTopic;

/**
 * Where the hop services produce records: work dispatches on {@code pipestream.module.<module>},
 * step records on {@code pipeline-events}, dead letters on the node's DLQ topic. Keys are
 * deterministic ids so redelivered records converge. Returns once the record is acknowledged.
 */
public interface EventBus {

  /** The topic every {@code StepExecutionRecord} is produced to. */
  String PIPELINE_EVENTS = PlatformTopic.PIPELINE_EVENTS.topicName();

  void publish(String topic, String key, byte[] value);

  static String moduleTopic(String moduleId) {
    return PlatformTopic.moduleTopic(moduleId);
  }

  static String dlqTopic(String clusterId, String graphId, String nodeId) {
    return "pipestream." + clusterId + "." + graphId + "." + nodeId + ".dlq";
  }
}
