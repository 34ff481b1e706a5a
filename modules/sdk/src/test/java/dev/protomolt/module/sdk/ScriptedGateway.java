package dev.protomolt.module.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.proto.module.v1.AckConfirmed;
import dev.protomolt.proto.module.v1.ModuleWorkServiceGrpc;
import dev.protomolt.proto.module.v1.NoWorkAvailable;
import dev.protomolt.proto.module.v1.Reject;
import dev.protomolt.proto.module.v1.WorkRequest;
import dev.protomolt.proto.module.v1.WorkResponse;
import dev.protomolt.proto.module.v1.WorkUnit;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The server side of ModuleWorkService driven by the test, one conversation per stream: this is the
 * worker's real peer over gRPC, scripted step by step, not a stand-in for any worker code.
 */
final class ScriptedGateway extends ModuleWorkServiceGrpc.ModuleWorkServiceImplBase {

  /** A safety net so a broken worker fails the test instead of hanging it; never a timing check. */
  static final long PATIENCE_SECONDS = 10;

  private final BlockingQueue<Conversation> opened = new LinkedBlockingQueue<>();

  @Override
  public StreamObserver<WorkRequest> work(StreamObserver<WorkResponse> responses) {
    Conversation conversation = new Conversation(responses);
    opened.add(conversation);
    return conversation.inbound;
  }

  /** The next stream the worker opened, in order. */
  Conversation nextConversation() throws InterruptedException {
    Conversation conversation = opened.poll(PATIENCE_SECONDS, TimeUnit.SECONDS);
    assertThat(conversation).as("the worker should have opened another Work stream").isNotNull();
    return conversation;
  }

  /** Streams opened and not yet taken by the test. */
  int unclaimedConversations() {
    return opened.size();
  }

  /** What the client did on one stream. */
  sealed interface ClientEvent {
    record Sent(WorkRequest request) implements ClientEvent {}

    record HalfClosed() implements ClientEvent {}

    record Cancelled(Status status) implements ClientEvent {}
  }

  static final class Conversation {
    private final StreamObserver<WorkResponse> responses;
    private final BlockingQueue<ClientEvent> events = new LinkedBlockingQueue<>();
    final StreamObserver<WorkRequest> inbound =
        new StreamObserver<>() {
          @Override
          public void onNext(WorkRequest value) {
            events.add(new ClientEvent.Sent(value));
          }

          @Override
          public void onError(Throwable t) {
            events.add(new ClientEvent.Cancelled(Status.fromThrowable(t)));
          }

          @Override
          public void onCompleted() {
            events.add(new ClientEvent.HalfClosed());
          }
        };

    Conversation(StreamObserver<WorkResponse> responses) {
      this.responses = responses;
    }

    ClientEvent nextEvent() throws InterruptedException {
      ClientEvent event = events.poll(PATIENCE_SECONDS, TimeUnit.SECONDS);
      assertThat(event).as("the worker should have said something on this stream").isNotNull();
      return event;
    }

    /** The next request; fails the test if the client closed the stream instead. */
    WorkRequest next() throws InterruptedException {
      ClientEvent event = nextEvent();
      assertThat(event).isInstanceOf(ClientEvent.Sent.class);
      return ((ClientEvent.Sent) event).request();
    }

    /** Events already received and not yet taken. */
    int pendingEvents() {
      return events.size();
    }

    WorkRequest awaitHello() throws InterruptedException {
      WorkRequest hello = next();
      assertThat(hello.getMessageCase()).isEqualTo(WorkRequest.MessageCase.HELLO);
      return hello;
    }

    void sendWorkUnit(WorkUnit unit) {
      responses.onNext(WorkResponse.newBuilder().setWorkUnit(unit).build());
    }

    /** NoWorkAvailable, then the server closes the stream, as the gateway does. */
    void sendNoWork(long retryAfterMs) {
      responses.onNext(
          WorkResponse.newBuilder()
              .setNoWork(NoWorkAvailable.newBuilder().setRetryAfterMs(retryAfterMs))
              .build());
      responses.onCompleted();
    }

    void confirm(String workUnitId) {
      responses.onNext(
          WorkResponse.newBuilder()
              .setAckConfirmed(
                  AckConfirmed.newBuilder().setWorkUnitId(workUnitId).setAccepted(true))
              .build());
      responses.onCompleted();
    }

    void refuse(String workUnitId, Reject reject) {
      responses.onNext(
          WorkResponse.newBuilder()
              .setAckConfirmed(
                  AckConfirmed.newBuilder()
                      .setWorkUnitId(workUnitId)
                      .setAccepted(false)
                      .setReject(reject))
              .build());
      responses.onCompleted();
    }

    void fail(Status status) {
      responses.onError(status.asRuntimeException());
    }
  }
}
