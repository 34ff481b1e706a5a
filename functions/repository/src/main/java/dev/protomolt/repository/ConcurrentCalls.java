package dev.protomolt.repository;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs object-storage calls side by side, one virtual thread each, so a document's parts cost the
 * slowest round trip rather than the sum of them.
 */
final class ConcurrentCalls {

  private ConcurrentCalls() {}

  /**
   * Runs every call and returns their results in order. When calls fail, the first failure in
   * call order is rethrown as is (after every call has finished, so none is left running).
   */
  static <T> List<T> all(List<Callable<T>> calls) {
    if (calls.size() == 1) {
      // One call needs no thread of its own (and its result may be null, which List.of refuses).
      return Collections.singletonList(callDirectly(calls.getFirst()));
    }
    try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<T>> futures = new ArrayList<>(calls.size());
      for (Callable<T> call : calls) {
        futures.add(executor.submit(call));
      }
      List<T> results = new ArrayList<>(calls.size());
      RuntimeException first = null;
      for (Future<T> future : futures) {
        try {
          results.add(future.get());
        } catch (ExecutionException e) {
          if (first == null) {
            first =
                e.getCause() instanceof RuntimeException r
                    ? r
                    : new IllegalStateException(e.getCause());
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while waiting for object storage", e);
        }
      }
      if (first != null) {
        throw first;
      }
      return results;
    }
  }

  private static <T> T callDirectly(Callable<T> call) {
    try {
      return call.call();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
