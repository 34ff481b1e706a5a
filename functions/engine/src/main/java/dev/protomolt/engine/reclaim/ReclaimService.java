package dev.protomolt.engine.reclaim;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.protomolt.core.identity.NodeCoordinates;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.events.v1.ReclaimRequest;
import dev.protomolt.proto.repository.v1.DocumentStatus;
import dev.protomolt.proto.repository.v1.GetPipeDocManifestRequest;
import dev.protomolt.proto.repository.v1.GetPipeDocManifestResponse;
import dev.protomolt.repository.DocumentReferences;
import dev.protomolt.repository.PipeDocStore;
import dev.protomolt.repository.PipeDocStoreException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * The consumer of {@code reclaim-requests}: Complete asks for the CACHE copy a hop consumed to be
 * reclaimed once the hop has settled, and this deletes it through the document store. It takes a
 * batch of raw record values, as an MSK-triggered Lambda receives them.
 *
 * <p>Idempotent and safe by construction: a copy already gone is counted, not an error; a PERSIST
 * copy ({@code keep=true}) is never touched, whatever the request says (the store's cache-only
 * tombstone re-checks the row). A malformed record cannot be fixed by redelivery, so it is
 * reported with the field and the rule and the batch goes on: losing it only leaves a CACHE copy
 * for the retention reconciler. A store failure is thrown, so the whole batch is redelivered.
 */
public final class ReclaimService {

  /** What one batch did; {@code refused} names each record that was not acted on and why. */
  public record Report(int reclaimed, int alreadyGone, int superseded, List<String> refused) {
    public Report {
      refused = List.copyOf(refused);
    }
  }

  /** The store did not answer; the batch should be redelivered. */
  public static final class ReclaimUnavailable extends RuntimeException {
    public ReclaimUnavailable(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private final PipeDocStore store;

  public ReclaimService(PipeDocStore store) {
    this.store = Objects.requireNonNull(store, "store");
  }

  public Report handle(List<byte[]> values) {
    int reclaimed = 0;
    int gone = 0;
    int superseded = 0;
    List<String> refused = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      String where = "record " + i;
      ReclaimRequest request;
      try {
        request = ReclaimRequest.parseFrom(values.get(i) == null ? new byte[0] : values.get(i));
      } catch (InvalidProtocolBufferException e) {
        refused.add(where + ": value is not a ReclaimRequest (" + e.getMessage() + ")");
        continue;
      }
      String problem = problem(request);
      if (problem != null) {
        refused.add(where + " (work unit '" + request.getWorkUnitId() + "'): " + problem);
        continue;
      }
      switch (reclaim(request)) {
        case RECLAIMED -> reclaimed++;
        case ALREADY_GONE -> gone++;
        case SUPERSEDED -> superseded++;
        case UNIDENTIFIED ->
            refused.add(
                where
                    + " (work unit '"
                    + request.getWorkUnitId()
                    + "'): "
                    + (request.getExpectedChecksum().isBlank()
                        ? "expected_checksum"
                        : "expected_updated_at")
                    + " is required: without it the copy cannot be told from a newer one at the"
                    + " same address");
        case PERSISTENT ->
            refused.add(
                where
                    + " (work unit '"
                    + request.getWorkUnitId()
                    + "'): doc '"
                    + request.getDocumentRef().getDocId()
                    + "' at '"
                    + request.getDocumentRef().getGraphAddressId()
                    + "' is stored as PERSIST (keep=true); only CACHE copies are reclaimed");
      }
    }
    return new Report(reclaimed, gone, superseded, refused);
  }

  private static String problem(ReclaimRequest request) {
    if (!request.hasDocumentRef()) {
      return "document_ref is required";
    }
    if (request.getDocumentRef().getKeep()) {
      return "document_ref.keep is true: a PERSIST copy is never reclaimed";
    }
    try {
      DocumentReferences.coordinates(request.getDocumentRef(), "document_ref");
    } catch (PipeDocStoreException.InvalidRequest e) {
      return e.getMessage();
    }
    return null;
  }

  /**
   * {@code SUPERSEDED}: the address holds another copy than the one the request names;
   * {@code UNIDENTIFIED}: a copy is there but the request does not say which copy it means, so it
   * is left for retention (a request for a copy already gone needs no identity to be harmless).
   */
  private enum Outcome {
    RECLAIMED,
    ALREADY_GONE,
    PERSISTENT,
    SUPERSEDED,
    UNIDENTIFIED
  }

  private Outcome reclaim(ReclaimRequest request) {
    DocumentReference ref = request.getDocumentRef();
    try {
      GetPipeDocManifestResponse row;
      try {
        row = store.getManifest(GetPipeDocManifestRequest.newBuilder().setDocumentRef(ref).build());
      } catch (PipeDocStoreException.DocumentNotFound e) {
        return Outcome.ALREADY_GONE;
      }
      if (row.getStatus() != DocumentStatus.DOCUMENT_STATUS_ACTIVE) {
        return Outcome.ALREADY_GONE;
      }
      if (row.getKeep()) {
        return Outcome.PERSISTENT;
      }
      if (request.getExpectedChecksum().isBlank() || !request.hasExpectedUpdatedAt()) {
        return Outcome.UNIDENTIFIED;
      }
      if (!row.getManifest().getChecksum().equals(request.getExpectedChecksum())
          || !row.getManifest().getUpdatedAt().equals(request.getExpectedUpdatedAt())) {
        return Outcome.SUPERSEDED;
      }
      NodeCoordinates coordinates = DocumentReferences.coordinates(ref, "document_ref");
      String reason =
          "RECLAIMED: "
              + (request.getReason().isBlank() ? "CACHE input consumed" : request.getReason());
      // The store re-checks keep, checksum and save time in the statement that tombstones, so a
      // save landing after the read above is never taken; that race counts as superseded.
      return store
              .reclaimCacheCopy(
                  coordinates,
                  reason,
                  request.getExpectedChecksum(),
                  request.getExpectedUpdatedAt())
              .isPresent()
          ? Outcome.RECLAIMED
          : Outcome.SUPERSEDED;
    } catch (SdkException | UncheckedIOException e) {
      throw new ReclaimUnavailable(
          "reclaiming doc '"
              + ref.getDocId()
              + "' at '"
              + ref.getGraphAddressId()
              + "' failed: "
              + e.getMessage(),
          e);
    }
  }
}
