package dev.protomolt.engine.graphs;

import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.function.Supplier;

/**
 * How the small operator doors answer: a refused input ({@link IllegalArgumentException}, whose
 * message names the field and the rule) is INVALID_ARGUMENT, anything else INTERNAL.
 */
final class DoorCalls {

  private DoorCalls() {}

  static <T> void unary(StreamObserver<T> out, Supplier<T> call) {
    T reply;
    try {
      reply = call.get();
    } catch (IllegalArgumentException e) {
      out.onError(Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException());
      return;
    } catch (RuntimeException e) {
      out.onError(
          Status.INTERNAL.withDescription(e.getMessage()).withCause(e).asRuntimeException());
      return;
    }
    out.onNext(reply);
    out.onCompleted();
  }
}
