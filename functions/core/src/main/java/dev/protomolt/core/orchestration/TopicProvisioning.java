package dev.protomolt.core.orchestration;

import java.util.List;

/**
 * Makes topics exist before anything produces to them. MSK Serverless, like a broker with {@code
 * auto.create.topics.enable=false}, refuses a record for a topic nobody created, so a graph's
 * dead-letter topics are created when the graph is activated (decision 0651).
 */
public interface TopicProvisioning {

  /**
   * Creates every topic in {@code topics} that does not exist yet; existing topics are left as they
   * are. Returns once all exist.
   *
   * @throws IllegalStateException naming the topic that could not be created
   */
  void ensureExist(List<String> topics);
}
