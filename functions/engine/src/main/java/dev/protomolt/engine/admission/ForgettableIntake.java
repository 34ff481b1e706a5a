package dev.protomolt.engine.admission;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.protomolt.core.identity.GraphIds;
import dev.protomolt.core.orchestration.AdmissionLog.AdmissionRecord;
import dev.protomolt.core.orchestration.AdmissionLog.Outcome;
import dev.protomolt.core.parts.Sha256Hex;
import dev.protomolt.core.routing.InlineBudget;
import dev.protomolt.core.rtbf.SealedStreams;
import dev.protomolt.core.store.Drive;
import dev.protomolt.core.store.DriveDirectory;
import dev.protomolt.core.store.DriveKind;
import dev.protomolt.core.store.ObjectAddress;
import dev.protomolt.core.store.UploadObjects;
import dev.protomolt.engine.admission.IntakeService.IntakeObject;
import dev.protomolt.proto.data.v1.Blob;
import dev.protomolt.proto.data.v1.BlobBag;
import dev.protomolt.proto.data.v1.OwnershipContext;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.repository.purge.UploadPurgeProofs;
import dev.protomolt.repository.purge.UploadPurgeProofs.UploadProof;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Right to be forgotten declared at intake (decisions 1747–1750): an upload whose object metadata
 * says {@code protomolt-rtbf: true} is admitted with its bytes inline in the execution input and
 * the document marked right-to-be-forgotten, so every edge is MEMORY (decision 0814) and no intake
 * copy is saved. Once an execution has it, the upload is deleted and a purge proof recorded; until
 * then (refused, not yet deployed, no graph) the upload stays, so nothing is lost.
 *
 * <p>A datasource may declare every upload of it right-to-be-forgotten (decision 1512); its
 * uploads then take exactly this path whatever their metadata says, {@code false} included: the
 * datasource wins, so an upload can never downgrade it.
 */
public final class ForgettableIntake {

  /** The user metadata name ({@code x-amz-meta-protomolt-rtbf}) that declares it. */
  public static final String METADATA = "protomolt-rtbf";

  private static final JsonFormat.Printer JSON =
      JsonFormat.printer().omittingInsignificantWhitespace();

  private final DriveDirectory drives;
  private final UploadObjects uploads;
  private final UploadPurgeProofs proofs;
  private final InstantSource clock;
  private final int inlineLimitBytes;
  private final SealedStreams seals;
  private final Predicate<String> forgettableDatasources;

  public ForgettableIntake(
      DriveDirectory drives,
      UploadObjects uploads,
      UploadPurgeProofs proofs,
      InstantSource clock,
      int inlineLimitBytes,
      SealedStreams seals,
      Predicate<String> forgettableDatasources) {
    this.seals = Objects.requireNonNull(seals, "seals");
    this.forgettableDatasources =
        Objects.requireNonNull(forgettableDatasources, "forgettableDatasources");
    this.drives = Objects.requireNonNull(drives, "drives");
    this.uploads = Objects.requireNonNull(uploads, "uploads");
    this.proofs = Objects.requireNonNull(proofs, "proofs");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.inlineLimitBytes = inlineLimitBytes;
  }

  /**
   * With the hops' inline limit, the one the document must fit on every MEMORY edge, sealing each
   * admitted body under a data key of {@code seals} (decision 1750); {@code
   * forgettableDatasources} says which datasources declare every upload (decision 1512).
   */
  public ForgettableIntake(
      DriveDirectory drives,
      UploadObjects uploads,
      UploadPurgeProofs proofs,
      InstantSource clock,
      SealedStreams seals,
      Predicate<String> forgettableDatasources) {
    this(drives, uploads, proofs, clock, InlineBudget.DEFAULT_BYTES, seals, forgettableDatasources);
  }

  /** What intake should do with one upload. */
  sealed interface Verdict {}

  /** Not declared (or not readable as an upload of the account's intake drive): the usual path. */
  record Ordinary() implements Verdict {}

  /** Already admitted and deleted with its proof: a redelivered notification admits nothing. */
  record AlreadyForgotten() implements Verdict {}

  /** Declared, {@code by} the metadata or the datasource: admit it with {@link #admit}. */
  record Declared(ObjectAddress upload, String by) implements Verdict {}

  /**
   * Reads the declaration from the upload's metadata.
   *
   * @throws IllegalArgumentException naming the metadata field when its value is not {@code true}
   *     or {@code false}; the upload is kept
   */
  Verdict verdict(IntakeObject object, String accountId, String datasourceId, String docId) {
    Optional<Drive> drive = drives.find(accountId, DriveKind.INTAKE);
    if (drive.isEmpty() || !drive.get().bucket().equals(object.bucket())) {
      // Not an upload of this account's intake bucket: the store refuses it on the usual path.
      return new Ordinary();
    }
    ObjectAddress upload = new ObjectAddress(drive.get(), object.key());
    Optional<Map<String, String>> metadata = uploads.metadata(upload);
    if (metadata.isEmpty()) {
      return proofs.recorded(docId) ? new AlreadyForgotten() : new Ordinary();
    }
    if (forgettableDatasources.test(datasourceId)) {
      // The datasource wins: whatever the upload says, even false, it is not read (decision 1512).
      return new Declared(upload, "datasource '" + datasourceId + "' is right-to-be-forgotten");
    }
    String declared = metadata.get().get(METADATA);
    if (declared == null || declared.equalsIgnoreCase("false")) {
      return new Ordinary();
    }
    if (!declared.equalsIgnoreCase("true")) {
      throw new IllegalArgumentException(
          "upload s3://"
              + object.bucket()
              + "/"
              + object.key()
              + ": metadata x-amz-meta-"
              + METADATA
              + " must be 'true' or 'false', got '"
              + declared
              + "'; nothing was admitted and the upload is kept");
    }
    return new Declared(upload, "x-amz-meta-" + METADATA + ": true");
  }

  /**
   * Admits the declared upload inline, then deletes it with its proof once an execution has it.
   *
   * @throws IllegalArgumentException when the document cannot travel inline; nothing is admitted
   *     and the upload is kept
   */
  List<AdmissionRecord> admit(
      Declared declared,
      IntakeObject object,
      String accountId,
      String datasourceId,
      String docId,
      String filename,
      Function<Intake, List<AdmissionRecord>> admission) {
    byte[] bytes = uploads.read(declared.upload());
    String sha256 = Sha256Hex.of(bytes);
    Instant now = clock.instant();
    PipeDoc doc =
        PipeDoc.newBuilder()
            .setDocId(docId)
            .setOwnership(
                OwnershipContext.newBuilder().setAccountId(accountId).setRightToBeForgotten(true))
            .setBlobBag(
                BlobBag.newBuilder()
                    .setBlob(
                        Blob.newBuilder()
                            .setBlobId("original")
                            .setFilename(filename)
                            .setData(ByteString.copyFrom(bytes))
                            .setSizeBytes(bytes.length)
                            .setChecksum(sha256)
                            .setChecksumType("SHA-256")))
            .build();
    PipeStream plain =
        PipeStream.newBuilder()
            .setStreamId(docId)
            .setDocument(doc)
            .setMetadata(IntakeService.arrival(accountId, datasourceId, now))
            .build();
    String keyId = SealedStreams.intakeKeyId(accountId, docId);
    PipeStream stream;
    try {
      // The execution's input and history hold only the sealed body (decision 1750).
      stream = seals.sealNew(plain, keyId);
    } catch (IllegalStateException e) {
      throw new IllegalArgumentException(
          "upload s3://"
              + object.bucket()
              + "/"
              + object.key()
              + " is declared right-to-be-forgotten, but its body cannot be sealed: "
              + e.getMessage()
              + "; nothing was admitted and the upload is kept",
          e);
    }
    int size = jsonSize(stream);
    if (size > inlineLimitBytes) {
      seals.forget(stream);
      throw new IllegalArgumentException(
          "upload s3://"
              + object.bucket()
              + "/"
              + object.key()
              + " is declared right-to-be-forgotten ("
              + declared.by()
              + "), so it must travel inline, but its stream is "
              + size
              + " bytes of JSON, over the inline limit of "
              + inlineLimitBytes
              + "; nothing was admitted and the upload is kept");
    }
    List<AdmissionRecord> recorded =
        admission.apply(new Intake(accountId, datasourceId, docId, stream));
    boolean running =
        recorded.stream()
            .anyMatch(r -> r.outcome() == Outcome.STARTED || r.outcome() == Outcome.CONVERGED);
    if (running) {
      // The proof first: a deletion that fails leaves the upload with its declaration, so the
      // redelivered notification converges and deletes it; a proof that failed after a deletion
      // would leave a redelivery nothing to recognise the document by.
      proofs.record(
          new UploadProof(
              declared.upload(),
              accountId,
              docId,
              GraphIds.intakeGraphId(accountId),
              datasourceId,
              object.versionId(),
              sha256,
              bytes.length,
              now),
          clock.instant());
      uploads.delete(declared.upload());
    }
    return recorded;
  }

  private static int jsonSize(PipeStream stream) {
    try {
      return JSON.print(stream).getBytes(StandardCharsets.UTF_8).length;
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("stream cannot be printed as JSON: " + e.getMessage(), e);
    }
  }
}
