package dev.protomolt.cli;

import dev.protomolt.module.sdk.DocumentProcessor;
import dev.protomolt.module.sdk.ModuleWorker;
import dev.protomolt.module.sdk.WorkerClock;
import dev.protomolt.module.sdk.WorkerConfig;
import dev.protomolt.proto.data.v1.PipeStream;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The platform's sample modules on a test's own workers, started a module at a time, counting
 * every call per document: how a test proves a module was called once per document, or not again
 * after a redrive. The platform's own sample workers should be stopped meanwhile, or they share
 * the work uncounted.
 */
final class CountingWorkers implements AutoCloseable {

  private final LocalPlatform platform;
  private final Map<String, DocumentProcessor> processors;
  private final ManagedChannel channel;
  private final List<ModuleWorker> workers = new ArrayList<>();
  private final Map<String, Map<String, AtomicInteger>> calls = new ConcurrentHashMap<>();

  CountingWorkers(LocalPlatform platform) {
    this.platform = platform;
    this.processors = platform.sampleProcessors();
    this.channel = platform.gatewayChannel().build();
  }

  /** Starts every sample module, each with {@code slots} units in flight at most. */
  CountingWorkers startAll(int slots) {
    processors.keySet().forEach(module -> start(module, slots));
    return this;
  }

  /** Starts {@code module} with one unit in flight at most. */
  void start(String module) {
    start(module, 1);
  }

  void start(String module, int slots) {
    Map<String, AtomicInteger> perDoc =
        calls.computeIfAbsent(module, k -> new ConcurrentHashMap<>());
    DocumentProcessor inner = processors.get(module);
    DocumentProcessor counting =
        work -> {
          perDoc.computeIfAbsent(docId(work.stream()), k -> new AtomicInteger()).incrementAndGet();
          return inner.process(work);
        };
    ModuleWorker worker =
        new ModuleWorker(
            // Each worker signs as its module's principal, as the gateway requires (1741).
            ClientInterceptors.intercept(channel, platform.moduleCredentials(module).interceptor()),
            WorkerConfig.of(module, slots),
            counting,
            WorkerClock.system());
    worker.start();
    workers.add(worker);
  }

  int calls(String module, String docId) {
    AtomicInteger n = calls.getOrDefault(module, Map.of()).get(docId);
    return n == null ? 0 : n.get();
  }

  /** Calls of {@code module} by document id. */
  Map<String, Integer> callsOf(String module) {
    Map<String, Integer> out = new HashMap<>();
    calls.getOrDefault(module, Map.of()).forEach((doc, n) -> out.put(doc, n.get()));
    return out;
  }

  private static String docId(PipeStream stream) {
    return stream.hasDocumentRef()
        ? stream.getDocumentRef().getDocId()
        : stream.getDocument().getDocId();
  }

  @Override
  public void close() {
    workers.forEach(ModuleWorker::close);
    channel.shutdownNow();
  }
}
