package dev.protomolt.engine.graphs;

import dev.protomolt.proto.engine.v1.DeclareIndexPlansRequest;
import dev.protomolt.proto.engine.v1.DeclareIndexPlansResponse;
import dev.protomolt.proto.engine.v1.IndexPlanServiceGrpc;
import dev.protomolt.proto.engine.v1.ListIndexPlansRequest;
import dev.protomolt.proto.engine.v1.ListIndexPlansResponse;
import io.grpc.stub.StreamObserver;
import java.util.Objects;

/** The gRPC door of the index-plan registry: sink modules declare, the designer and CLI list. */
public final class IndexPlanGrpcService extends IndexPlanServiceGrpc.IndexPlanServiceImplBase {

  private final PostgresIndexPlans plans;

  public IndexPlanGrpcService(PostgresIndexPlans plans) {
    this.plans = Objects.requireNonNull(plans, "plans");
  }

  @Override
  public void declareIndexPlans(
      DeclareIndexPlansRequest request, StreamObserver<DeclareIndexPlansResponse> out) {
    DoorCalls.unary(
        out,
        () ->
            DeclareIndexPlansResponse.newBuilder()
                .addAllPlans(plans.declare(request.getPlansList()))
                .build());
  }

  @Override
  public void listIndexPlans(
      ListIndexPlansRequest request, StreamObserver<ListIndexPlansResponse> out) {
    DoorCalls.unary(
        out,
        () ->
            ListIndexPlansResponse.newBuilder()
                .addAllPlans(plans.list(request.getModuleId()))
                .build());
  }
}
