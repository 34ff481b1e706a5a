package dev.protomolt.gateway;

import dev.protomolt.proto.module.v1.Hello;
import dev.protomolt.proto.module.v1.ModuleWorkServiceGrpc;
import dev.protomolt.proto.module.v1.WorkRequest;
import dev.protomolt.proto.module.v1.WorkResponse;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;

/** One raw Work stream driven step by step from a test (everything runs on directExecutor). */
final class ClientStream implements StreamObserver<WorkResponse> {

  final List<WorkResponse> responses = new ArrayList<>();
  Status closedWith;
  boolean completed;
  final StreamObserver<WorkRequest> requests;

  ClientStream(ModuleWorkServiceGrpc.ModuleWorkServiceStub stub) {
    this.requests = stub.work(this);
  }

  ClientStream hello(String moduleId) {
    requests.onNext(
        WorkRequest.newBuilder()
            .setHello(Hello.newBuilder().setModuleId(moduleId).setInstanceId("test-instance"))
            .build());
    return this;
  }

  ClientStream send(WorkRequest request) {
    requests.onNext(request);
    return this;
  }

  WorkResponse last() {
    return responses.getLast();
  }

  boolean open() {
    return closedWith == null && !completed;
  }

  @Override
  public synchronized void onNext(WorkResponse value) {
    responses.add(value);
  }

  @Override
  public synchronized void onError(Throwable t) {
    closedWith = Status.fromThrowable(t);
  }

  @Override
  public synchronized void onCompleted() {
    completed = true;
  }
}
