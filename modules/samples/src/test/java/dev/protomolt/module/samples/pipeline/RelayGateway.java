package dev.protomolt.module.samples.pipeline;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.module.v1.AckConfirmed;
import dev.protomolt.proto.module.v1.ModuleWorkServiceGrpc;
import dev.protomolt.proto.module.v1.WorkAck;
import dev.protomolt.proto.module.v1.WorkRequest;
import dev.protomolt.proto.module.v1.WorkResponse;
import dev.protomolt.proto.module.v1.WorkUnit;
import io.grpc.stub.StreamObserver;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

/**
 * A test-side gateway that relays documents along a fixed chain of module ids: a Hello is answered
 * with the next queued unit for its module (or parked until one arrives, as a long poll), and an
 * Updated ack queues the document for the next module. It stands in for the real gateway, which
 * does not exist yet, so the samples can be driven as real gRPC clients end to end.
 */
final class RelayGateway extends ModuleWorkServiceGrpc.ModuleWorkServiceImplBase {

  private final List<String> chain;
  private final Map<String, Deque<WorkUnit>> queued = new HashMap<>();
  private final Map<String, Deque<StreamObserver<WorkResponse>>> parked = new HashMap<>();

  /** The final ack result per doc id: the last module's Updated, or wherever it stopped. */
  final Map<String, WorkAck> terminal = new ConcurrentHashMap<>();

  private final CountDownLatch settled;

  RelayGateway(List<String> chain, int documents) {
    this.chain = chain;
    this.settled = new CountDownLatch(documents);
  }

  CountDownLatch settled() {
    return settled;
  }

  void ingest(PipeDoc document) {
    offer(chain.getFirst(), unit(chain.getFirst(), document));
  }

  private static WorkUnit unit(String module, PipeDoc document) {
    return WorkUnit.newBuilder()
        .setWorkUnitId(module + ":" + document.getDocId())
        .setNodeId("node-" + module)
        .setGraphId("graph-demo")
        .setGraphVersion(1)
        .setBlobContentIncluded(true)
        .setStream(PipeStream.newBuilder().setStreamId(document.getDocId()).setDocument(document))
        .build();
  }

  private void offer(String module, WorkUnit unit) {
    StreamObserver<WorkResponse> waiting;
    synchronized (this) {
      waiting = parked.computeIfAbsent(module, m -> new ArrayDeque<>()).poll();
      if (waiting == null) {
        queued.computeIfAbsent(module, m -> new ArrayDeque<>()).add(unit);
        return;
      }
    }
    waiting.onNext(WorkResponse.newBuilder().setWorkUnit(unit).build());
  }

  @Override
  public StreamObserver<WorkRequest> work(StreamObserver<WorkResponse> responses) {
    return new StreamObserver<>() {
      private String module;

      @Override
      public void onNext(WorkRequest request) {
        switch (request.getMessageCase()) {
          case HELLO -> {
            module = request.getHello().getModuleId();
            WorkUnit unit;
            synchronized (RelayGateway.this) {
              unit = queued.computeIfAbsent(module, m -> new ArrayDeque<>()).poll();
              if (unit == null) {
                parked.computeIfAbsent(module, m -> new ArrayDeque<>()).add(responses);
                return;
              }
            }
            responses.onNext(WorkResponse.newBuilder().setWorkUnit(unit).build());
          }
          case ACK -> {
            settle(module, request.getAck());
            responses.onNext(
                WorkResponse.newBuilder()
                    .setAckConfirmed(
                        AckConfirmed.newBuilder()
                            .setWorkUnitId(request.getAck().getWorkUnitId())
                            .setAccepted(true))
                    .build());
            responses.onCompleted();
          }
          default -> {
            /* heartbeats: nothing to relay */
          }
        }
      }

      @Override
      public void onError(Throwable t) {
        synchronized (RelayGateway.this) {
          if (module != null) {
            parked.getOrDefault(module, new ArrayDeque<>()).remove(responses);
          }
        }
      }

      @Override
      public void onCompleted() {}
    };
  }

  private void settle(String module, WorkAck ack) {
    String docId = ack.getWorkUnitId().substring(module.length() + 1);
    int position = chain.indexOf(module);
    if (ack.hasUpdatedPayload() && position + 1 < chain.size()) {
      try {
        PipeDoc next = ack.getUpdatedPayload().unpack(PipeDoc.class);
        offer(chain.get(position + 1), unit(chain.get(position + 1), next));
        return;
      } catch (InvalidProtocolBufferException e) {
        throw new IllegalStateException("updated_payload is not a PipeDoc", e);
      }
    }
    // The end of the chain, or a Reject / NoOp / retry that stops this relay.
    terminal.put(docId, ack);
    settled.countDown();
  }
}
