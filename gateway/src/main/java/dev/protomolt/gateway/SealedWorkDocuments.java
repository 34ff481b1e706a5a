package dev.protomolt.gateway;

import dev.protomolt.core.rtbf.DataKeyGoneException;
import dev.protomolt.core.rtbf.SealedStreams;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.module.v1.WorkDispatch;
import java.util.Objects;

/**
 * Puts a right-to-be-forgotten body in front of a module and takes it back sealed (decision 1509):
 * a dispatch whose body is sealed under its data key (decision 1750) is opened in memory before
 * {@code delegate} hydrates it, and the module's result is sealed under the same key before it
 * goes back into execution state, so Step Functions never holds the plaintext. Streams without a
 * data key pass through untouched.
 */
public final class SealedWorkDocuments implements WorkDocuments {

  private final WorkDocuments delegate;
  private final SealedStreams seals;

  public SealedWorkDocuments(WorkDocuments delegate, SealedStreams seals) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.seals = Objects.requireNonNull(seals, "seals");
  }

  @Override
  public HydratedUnit hydrate(WorkDispatch dispatch) {
    if (!dispatch.getStream().hasSealedDocument()) {
      return delegate.hydrate(dispatch);
    }
    PipeStream opened;
    try {
      opened = seals.open(dispatch.getStream());
    } catch (DataKeyGoneException | IllegalArgumentException e) {
      // The walk already ended (its key is destroyed) or the ciphertext is not this stream's:
      // no attempt can ever read it, so the hop is rejected rather than retried.
      throw new HydrationFailedException("stream.sealed_document: " + e.getMessage(), true, e);
    } catch (RuntimeException e) {
      // KMS, the key ledger or this task's key setting: another attempt may succeed.
      throw new HydrationFailedException(
          "stream.sealed_document: the data key could not be opened: " + e.getMessage(), false, e);
    }
    return delegate.hydrate(dispatch.toBuilder().setStream(opened).build());
  }

  @Override
  public PipeStream saveResult(WorkDispatch dispatch, HydratedUnit served, PipeDoc processed) {
    if (!SealedStreams.keyed(dispatch.getStream())) {
      return delegate.saveResult(dispatch, served, processed);
    }
    // The delegate judges the result as it was served, opened: a keyed stream's result is never
    // stored (StoreWorkDocuments refuses it over the inline limit), so it comes back inline.
    WorkDispatch opened = dispatch.toBuilder().setStream(served.stream()).build();
    PipeStream next = delegate.saveResult(opened, served, processed);
    if (!next.hasDocument()) {
      throw new IllegalStateException(
          "work unit "
              + dispatch.getWorkUnitId()
              + ": a right-to-be-forgotten result must ride inline, got "
              + next.getPayloadCase());
    }
    return seals.seal(next);
  }
}
