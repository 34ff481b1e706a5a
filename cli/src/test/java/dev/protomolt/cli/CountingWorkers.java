package dev.protomolt.cli;

import dev.protomolt.module.sdk.DocumentProcessor;
import dev.protomolt.module.sdk.ModuleWorker;
import dev.protomolt.module.sdk.WorkerClock;
import dev.protomolt.module.sdk.WorkerConfig;
import dev.protomolt.proto.data.v1.PipeStream;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * The platform's sample modules on a test's own workers, started a module at a time, counting
 * every call per document and the order each module finished them in: how a test proves a module
 * was called once per document, or not again after a redrive, or who was served first. The platform's own sample workers should be stopped meanwhile, or they share
 * the work uncounted.
 */
final class CountingWorkers implements AutoCloseable {

  private final LocalPlatform platform;
  private final Map<String, DocumentProcessor> processors;
  private final ManagedChannel channel;
  private final List<ModuleWorker> workers = new ArrayList<>();
  private final Map<String, Map<String, AtomicInteger>> calls = new ConcurrentHashMap<>();
  private final Map<String, List<String>> finished = new ConcurrentHashMap<>();

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
    start(module, slots, () -> false);
  }

  /**
   * Starts {@code module} with one unit in flight, throwing for every document while {@code
   * broken} says so (the SDK answers a throw as a retryable failure, so the hop retries and then
   * dead-letters); every call is counted, failed or not.
   */
  void startFailingWhile(String module, BooleanSupplier broken) {
    start(module, 1, broken);
  }

  private void start(String module, int slots, BooleanSupplier broken) {
    Map<String, AtomicInteger> perDoc =
        calls.computeIfAbsent(module, k -> new ConcurrentHashMap<>());
    List<String> done =
        finished.computeIfAbsent(module, k -> Collections.synchronizedList(new ArrayList<>()));
    DocumentProcessor inner = processors.get(module);
    DocumentProcessor counting =
        work -> {
          String docId = docId(work.stream());
          perDoc.computeIfAbsent(docId, k -> new AtomicInteger()).incrementAndGet();
          if (broken.getAsBoolean()) {
            throw new IllegalStateException(module + " is broken for this test");
          }
          var outcome = inner.process(work);
          done.add(docId);
          return outcome;
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

  /** The documents {@code module} has finished processing, in the order it finished them. */
  List<String> finishedOrder(String module) {
    List<String> done = finished.getOrDefault(module, List.of());
    synchronized (done) {
      return List.copyOf(done);
    }
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
