package dev.protomolt.engine.hop;

import dev.protomolt.core.orchestration.EventBus;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * An in-memory {@link EventBus}: every record in order, and module dispatches in a queue the test
 * plays the module from. The Kafka adapter is not written yet (see the engine README).
 */
final class RecordingEventBus implements EventBus {

  record Produced(String topic, String key, byte[] value) {}

  final List<Produced> produced = new CopyOnWriteArrayList<>();
  final BlockingQueue<Produced> dispatches = new LinkedBlockingQueue<>();

  @Override
  public void publish(String topic, String key, byte[] value) {
    Produced record = new Produced(topic, key, value.clone());
    produced.add(record);
    if (topic.startsWith("pipestream.module.")) {
      dispatches.add(record);
    }
  }

  List<Produced> on(String topic) {
    return produced.stream().filter(p -> p.topic().equals(topic)).toList();
  }
}
