package dev.protomolt.repository.grpc;

import dev.protomolt.proto.repository.v1.DeletePipeDocRequest;
import dev.protomolt.proto.repository.v1.DeletePipeDocResponse;
import dev.protomolt.proto.repository.v1.GetPipeDocManifestRequest;
import dev.protomolt.proto.repository.v1.GetPipeDocManifestResponse;
import dev.protomolt.proto.repository.v1.GetPipeDocRequest;
import dev.protomolt.proto.repository.v1.GetPipeDocResponse;
import dev.protomolt.proto.repository.v1.PipeDocServiceGrpc;
import dev.protomolt.proto.repository.v1.ReplayCandidate;
import dev.protomolt.proto.repository.v1.SavePipeDocRequest;
import dev.protomolt.proto.repository.v1.SavePipeDocResponse;
import dev.protomolt.proto.repository.v1.StreamDocumentsForReplayRequest;
import dev.protomolt.repository.PipeDocStore;
import dev.protomolt.repository.PipeDocStoreException;
import dev.protomolt.repository.replay.ReplayQuery;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.util.Objects;
import java.util.function.Function;

/**
 * The gRPC door of {@link PipeDocStore}: it calls one store method and maps the store's typed
 * refusals to gRPC status codes. Nothing else happens here.
 */
public final class PipeDocGrpcService extends PipeDocServiceGrpc.PipeDocServiceImplBase {

  private final PipeDocStore store;
  private final ReplayQuery replay;

  public PipeDocGrpcService(PipeDocStore store, ReplayQuery replay) {
    this.store = Objects.requireNonNull(store, "store");
    this.replay = Objects.requireNonNull(replay, "replay");
  }

  @Override
  public void savePipeDoc(
      SavePipeDocRequest request, StreamObserver<SavePipeDocResponse> responses) {
    answer(request, store::save, responses);
  }

  @Override
  public void getPipeDoc(GetPipeDocRequest request, StreamObserver<GetPipeDocResponse> responses) {
    answer(request, store::get, responses);
  }

  @Override
  public void getPipeDocManifest(
      GetPipeDocManifestRequest request, StreamObserver<GetPipeDocManifestResponse> responses) {
    answer(request, store::getManifest, responses);
  }

  @Override
  public void deletePipeDoc(
      DeletePipeDocRequest request, StreamObserver<DeletePipeDocResponse> responses) {
    answer(request, store::delete, responses);
  }

  @Override
  public void streamDocumentsForReplay(
      StreamDocumentsForReplayRequest request, StreamObserver<ReplayCandidate> responses) {
    try {
      replay.stream(request, responses::onNext);
    } catch (RuntimeException e) {
      responses.onError(toStatus(e));
      return;
    }
    responses.onCompleted();
  }

  private static <Q, R> void answer(Q request, Function<Q, R> call, StreamObserver<R> responses) {
    R response;
    try {
      response = call.apply(request);
    } catch (RuntimeException e) {
      responses.onError(toStatus(e));
      return;
    }
    responses.onNext(response);
    responses.onCompleted();
  }

  /** The status a caller sees for each refusal; the message always comes along. */
  static StatusRuntimeException toStatus(RuntimeException e) {
    Status status =
        switch (e) {
          case PipeDocStoreException.InvalidRequest ignored -> Status.INVALID_ARGUMENT;
          // The caller's remedy is to retry as a full save: FAILED_PRECONDITION says exactly that.
          case PipeDocStoreException.CopySourceGone ignored -> Status.FAILED_PRECONDITION;
          case PipeDocStoreException.AccountNotProvisioned ignored -> Status.FAILED_PRECONDITION;
          case PipeDocStoreException.AccountInactive ignored -> Status.PERMISSION_DENIED;
          case PipeDocStoreException.DocumentNotFound ignored -> Status.NOT_FOUND;
          // The ledger promises bytes the object store does not have (or has corrupted).
          case PipeDocStoreException.PartUnreadable ignored -> Status.DATA_LOSS;
          default -> Status.INTERNAL;
        };
    return status.withDescription(e.getMessage()).withCause(e).asRuntimeException();
  }
}
