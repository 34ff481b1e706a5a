package dev.protomolt.module.sdk;

import dev.protomolt.proto.module.v1.ModuleWorkServiceGrpc;
import dev.protomolt.proto.module.v1.WorkRequest;
import dev.protomolt.proto.module.v1.WorkResponse;
import io.grpc.Status;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * One {@code ModuleWorkService.Work} call seen as a blocking conversation: the slot thread sends
 * and takes the next server event in turn. Sends are serialised because heartbeats come from the
 * clock's thread while the ack comes from the slot's.
 */
final class WorkStream {

  /** What the server side said next. */
  sealed interface Event {
    record Message(WorkResponse response) implements Event {}

    /** The call ended: with an error, or completed by the server (status OK). */
    record Closed(Status status) implements Event {}
  }

  private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
  private ClientCallStreamObserver<WorkRequest> requests;
  // Volatile, not guarded: the transport marks it from its own thread while a send may hold the
  // lock.
  private volatile boolean closed;

  private WorkStream() {}

  static WorkStream open(ModuleWorkServiceGrpc.ModuleWorkServiceStub stub) {
    WorkStream stream = new WorkStream();
    stub.work(stream.new Observer());
    return stream;
  }

  /** Sends one request; false when the call is already over (the message is dropped). */
  synchronized boolean send(WorkRequest request) {
    if (closed || requests == null) {
      return false;
    }
    try {
      requests.onNext(request);
      return true;
    } catch (RuntimeException e) {
      // A call cancelled under us refuses writes; the Closed event tells the slot why.
      return false;
    }
  }

  /** Blocks for the next server event; after the call ends, keeps returning its Closed event. */
  Event next() throws InterruptedException {
    Event event = events.take();
    if (event instanceof Event.Closed) {
      events.add(event);
    }
    return event;
  }

  /** Our side is done talking: half-close, the server then closes the call. */
  synchronized void finish() {
    if (!closed && requests != null) {
      try {
        requests.onCompleted();
      } catch (RuntimeException ignored) {
        // Already cancelled: nothing left to close.
      }
    }
  }

  synchronized void cancel(String why) {
    if (!closed && requests != null) {
      requests.cancel(why, null);
    }
  }

  boolean isClosed() {
    return closed;
  }

  private void markClosed() {
    closed = true;
  }

  private final class Observer implements ClientResponseObserver<WorkRequest, WorkResponse> {

    @Override
    public void beforeStart(ClientCallStreamObserver<WorkRequest> requestStream) {
      synchronized (WorkStream.this) {
        requests = requestStream;
      }
    }

    @Override
    public void onNext(WorkResponse value) {
      events.add(new Event.Message(value));
    }

    @Override
    public void onError(Throwable t) {
      markClosed();
      events.add(new Event.Closed(Status.fromThrowable(t)));
    }

    @Override
    public void onCompleted() {
      markClosed();
      events.add(new Event.Closed(Status.OK));
    }
  }
}
