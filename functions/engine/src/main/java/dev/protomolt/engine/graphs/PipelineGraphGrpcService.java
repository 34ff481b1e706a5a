package dev.protomolt.engine.graphs;

import dev.protomolt.core.graph.GraphAdminException;
import dev.protomolt.core.graph.GraphStore.StoredGraph;
import dev.protomolt.proto.config.v1.GraphDraft;
import dev.protomolt.proto.config.v1.ValidationResult;
import dev.protomolt.proto.engine.v1.CreateGraphRequest;
import dev.protomolt.proto.engine.v1.DeactivateGraphRequest;
import dev.protomolt.proto.engine.v1.DeactivateGraphResponse;
import dev.protomolt.proto.engine.v1.DeleteDraftResponse;
import dev.protomolt.proto.engine.v1.DeleteGraphVersionResponse;
import dev.protomolt.proto.engine.v1.DraftRef;
import dev.protomolt.proto.engine.v1.GetGraphRequest;
import dev.protomolt.proto.engine.v1.GraphVersionRef;
import dev.protomolt.proto.engine.v1.GraphVersionResponse;
import dev.protomolt.proto.engine.v1.GraphVersionSummary;
import dev.protomolt.proto.engine.v1.ListGraphVersionsRequest;
import dev.protomolt.proto.engine.v1.ListGraphVersionsResponse;
import dev.protomolt.proto.engine.v1.ListGraphsRequest;
import dev.protomolt.proto.engine.v1.ListGraphsResponse;
import dev.protomolt.proto.engine.v1.PipelineGraphServiceGrpc;
import dev.protomolt.proto.engine.v1.SaveDraftRequest;
import dev.protomolt.proto.engine.v1.SubscribeToGraphUpdatesRequest;
import dev.protomolt.proto.engine.v1.ValidateGraphRequest;
import dev.protomolt.proto.events.v1.GraphUpdateEvent;
import dev.protomolt.proto.events.v1.GraphUpdateType;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.EnumSet;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The gRPC door of graph lifecycle. Thin: each call parses its request, calls one service method
 * and shapes the reply; {@link GraphAdminException} reasons become the matching status codes.
 */
public final class PipelineGraphGrpcService
    extends PipelineGraphServiceGrpc.PipelineGraphServiceImplBase {

  private final GraphAdminService graphs;
  private final DraftService drafts;
  private final GraphUpdateFeed feed;

  /**
   * Activation deploys the version (compile, publish, move the alias) when a {@code
   * GraphActivationService} is attached to {@code graphs}, so this door needs no deploy step of its own.
   */
  public PipelineGraphGrpcService(
      GraphAdminService graphs, DraftService drafts, GraphUpdateFeed feed) {
    this.graphs = graphs;
    this.drafts = drafts;
    this.feed = feed;
  }

  @Override
  public void createGraph(CreateGraphRequest request, StreamObserver<GraphVersionResponse> out) {
    unary(
        out,
        () ->
            response(graphs.create(request.getGraph(), expected(request), request.getCreatedBy())));
  }

  @Override
  public void createAndActivateGraph(
      CreateGraphRequest request, StreamObserver<GraphVersionResponse> out) {
    unary(
        out,
        () ->
            response(
                graphs.createAndActivate(
                    request.getGraph(), expected(request), request.getCreatedBy())));
  }

  @Override
  public void activateGraph(GraphVersionRef request, StreamObserver<GraphVersionResponse> out) {
    unary(
        out,
        () ->
            response(
                graphs.activate(
                    request.getGraphId(), request.getClusterId(), request.getVersion())));
  }

  @Override
  public void deactivateGraph(
      DeactivateGraphRequest request, StreamObserver<DeactivateGraphResponse> out) {
    unary(
        out,
        () -> {
          var done = graphs.deactivate(request.getGraphId(), request.getClusterId());
          return DeactivateGraphResponse.newBuilder()
              .setDeactivatedVersion(done.deactivatedVersion())
              .setDeactivationEpoch(done.epoch())
              .build();
        });
  }

  @Override
  public void deleteGraphVersion(
      GraphVersionRef request, StreamObserver<DeleteGraphVersionResponse> out) {
    unary(
        out,
        () -> {
          graphs.delete(request.getGraphId(), request.getClusterId(), request.getVersion());
          return DeleteGraphVersionResponse.newBuilder().setDeleted(true).build();
        });
  }

  @Override
  public void getGraph(GetGraphRequest request, StreamObserver<GraphVersionResponse> out) {
    unary(
        out,
        () ->
            response(
                graphs
                    .get(request.getGraphId(), request.getClusterId(), request.getVersion())
                    .orElseThrow(
                        () ->
                            new GraphAdminException(
                                GraphAdminException.Reason.NOT_FOUND,
                                "graph '"
                                    + request.getGraphId()
                                    + "' "
                                    + (request.getVersion() == 0
                                        ? "has no active version"
                                        : "version "
                                            + request.getVersion()
                                            + " does not exist")))));
  }

  @Override
  public void listGraphVersions(
      ListGraphVersionsRequest request, StreamObserver<ListGraphVersionsResponse> out) {
    unary(
        out,
        () ->
            ListGraphVersionsResponse.newBuilder()
                .addAllVersions(
                    graphs.versions(request.getGraphId()).stream()
                        .filter(
                            s ->
                                request.getClusterId().isBlank()
                                    || s.graph().getClusterId().equals(request.getClusterId()))
                        .map(PipelineGraphGrpcService::summary)
                        .toList())
                .build());
  }

  @Override
  public void listGraphs(ListGraphsRequest request, StreamObserver<ListGraphsResponse> out) {
    unary(
        out,
        () ->
            ListGraphsResponse.newBuilder()
                .addAllGraphs(
                    graphs.graphs(request.getClusterId()).stream()
                        .map(PipelineGraphGrpcService::summary)
                        .toList())
                .build());
  }

  @Override
  public void validateGraph(ValidateGraphRequest request, StreamObserver<ValidationResult> out) {
    unary(out, () -> graphs.validate(request.getGraph(), request.getMode()));
  }

  @Override
  public void saveDraft(SaveDraftRequest request, StreamObserver<GraphDraft> out) {
    unary(
        out,
        () ->
            drafts.save(
                request.getClusterId(),
                request.getGraphId(),
                request.getUserId(),
                request.getGraph(),
                request.hasBaseVersion()
                    ? OptionalLong.of(request.getBaseVersion())
                    : OptionalLong.empty()));
  }

  @Override
  public void getDraft(DraftRef request, StreamObserver<GraphDraft> out) {
    unary(
        out,
        () ->
            drafts
                .get(request.getClusterId(), request.getGraphId(), request.getUserId())
                .orElseThrow(
                    () ->
                        new GraphAdminException(
                            GraphAdminException.Reason.NOT_FOUND,
                            "no live draft "
                                + DraftService.draftId(
                                    request.getClusterId(),
                                    request.getGraphId(),
                                    request.getUserId()))));
  }

  @Override
  public void deleteDraft(DraftRef request, StreamObserver<DeleteDraftResponse> out) {
    unary(
        out,
        () ->
            DeleteDraftResponse.newBuilder()
                .setDeleted(
                    drafts.delete(
                        request.getClusterId(), request.getGraphId(), request.getUserId()))
                .build());
  }

  @Override
  public void subscribeToGraphUpdates(
      SubscribeToGraphUpdatesRequest request, StreamObserver<GraphUpdateEvent> out) {
    Set<GraphUpdateType> types =
        request.getTypesList().isEmpty() ? Set.of() : EnumSet.copyOf(request.getTypesList());
    ServerCallStreamObserver<GraphUpdateEvent> call =
        (ServerCallStreamObserver<GraphUpdateEvent>) out;
    AutoCloseable subscription =
        feed.subscribe(
            new GraphUpdateFeed.Filter(request.getClusterId(), request.getGraphId(), types),
            event -> {
              synchronized (call) {
                if (!call.isCancelled()) {
                  call.onNext(event);
                }
              }
            });
    call.setOnCancelHandler(
        () -> {
          try {
            subscription.close();
          } catch (Exception ignored) {
            // Removing a subscriber from a list cannot fail; the signature is AutoCloseable's.
          }
        });
  }

  private static OptionalLong expected(CreateGraphRequest request) {
    return request.hasExpectedVersion()
        ? OptionalLong.of(request.getExpectedVersion())
        : OptionalLong.empty();
  }

  private static GraphVersionResponse response(StoredGraph stored) {
    return GraphVersionResponse.newBuilder()
        .setGraph(stored.graph())
        .setActive(stored.active())
        .setStateMachineVersionArn(stored.stateMachineVersionArn())
        .build();
  }

  private static GraphVersionSummary summary(StoredGraph s) {
    return GraphVersionSummary.newBuilder()
        .setGraphId(s.graph().getGraphId())
        .setClusterId(s.graph().getClusterId())
        .setVersion(s.graph().getVersion())
        .setActive(s.active())
        .setName(s.graph().getName())
        .setNodeCount(s.graph().getNodesCount())
        .setEdgeCount(s.graph().getEdgesCount())
        .setStateMachineVersionArn(s.stateMachineVersionArn())
        .build();
  }

  private static <T> void unary(StreamObserver<T> out, Supplier<T> call) {
    T reply;
    try {
      reply = call.get();
    } catch (GraphAdminException e) {
      out.onError(status(e.reason()).withDescription(e.getMessage()).asRuntimeException());
      return;
    } catch (RuntimeException e) {
      out.onError(
          Status.INTERNAL.withDescription(e.getMessage()).withCause(e).asRuntimeException());
      return;
    }
    out.onNext(reply);
    out.onCompleted();
  }

  private static Status status(GraphAdminException.Reason reason) {
    return switch (reason) {
      case INVALID_ARGUMENT -> Status.INVALID_ARGUMENT;
      case NOT_FOUND -> Status.NOT_FOUND;
      case FAILED_PRECONDITION -> Status.FAILED_PRECONDITION;
      case ABORTED -> Status.ABORTED;
      case UNAVAILABLE -> Status.UNAVAILABLE;
    };
  }
}
