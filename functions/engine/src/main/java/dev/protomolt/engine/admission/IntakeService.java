package dev.protomolt.engine.admission;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.Timestamp;
import dev.protomolt.core.identity.GraphIds;
import dev.protomolt.core.orchestration.AdmissionLog.AdmissionRecord;
import dev.protomolt.core.orchestration.StateMachineNames;
import dev.protomolt.proto.data.v1.Blob;
import dev.protomolt.proto.data.v1.BlobBag;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.FileStorageReference;
import dev.protomolt.proto.data.v1.OwnershipContext;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.StreamMetadata;
import dev.protomolt.proto.repository.v1.SavePipeDocRequest;
import dev.protomolt.repository.PipeDocStore;
import dev.protomolt.tracing.Traceparent;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Intake: an S3 object-created notification on the intake bucket becomes a saved intake copy
 * (an INTAKE row in graph {@code intake:<accountId>} at the datasource's address, deduplicated by
 * content) and then an admission. The object key names the account and the datasource
 * ({@code <accountId>/<datasourceId>/<path>}, decision 0804); the doc id is derived from the
 * bucket and key, so a repeated notification names the same document and converges. The bytes stay
 * in the intake object: the intake copy's blob is a storage reference, fetched only by modules
 * whose capabilities ask for level 2. An upload declared right-to-be-forgotten in its metadata
 * gets no intake copy at all: {@link ForgettableIntake} admits it inline and deletes it.
 */
public final class IntakeService {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final PipeDocStore store;
  private final AdmissionService admission;
  private final InstantSource clock;
  private final ForgettableIntake forgettable;

  /** Intake that never reads an upload's metadata: every upload gets an intake copy. */
  public IntakeService(PipeDocStore store, AdmissionService admission, InstantSource clock) {
    this(store, admission, clock, null);
  }

  /**
   * @param forgettable reads each upload's right-to-be-forgotten declaration and admits a declared
   *     one inline with no intake copy; null for intake that never reads upload metadata
   */
  public IntakeService(
      PipeDocStore store,
      AdmissionService admission,
      InstantSource clock,
      ForgettableIntake forgettable) {
    this.store = Objects.requireNonNull(store, "store");
    this.admission = Objects.requireNonNull(admission, "admission");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.forgettable = forgettable;
  }

  /** One S3 object the notification names. */
  public record IntakeObject(String bucket, String key, long size, String etag, String versionId) {}

  /** Handles an S3 event notification (the {@code Records} document S3 sends); returns every admission. */
  public List<AdmissionRecord> handle(String s3EventJson) {
    List<AdmissionRecord> all = new ArrayList<>();
    for (IntakeObject object : objectsOf(s3EventJson)) {
      all.addAll(admit(object));
    }
    return all;
  }

  public List<AdmissionRecord> admit(IntakeObject object) {
    String[] segments = object.key().split("/", 3);
    if (segments.length < 3
        || segments[0].isBlank()
        || segments[1].isBlank()
        || segments[2].isBlank()) {
      throw new IllegalArgumentException(
          "intake object key '"
              + object.key()
              + "' must be "
              + "<accountId>/<datasourceId>/<path> with no empty segment");
    }
    String accountId = segments[0];
    String datasourceId = segments[1];
    String docId = StateMachineNames.hashOf("intake", object.bucket(), object.key());
    String filename = segments[2].substring(segments[2].lastIndexOf('/') + 1);
    if (forgettable != null) {
      switch (forgettable.verdict(object, accountId, datasourceId, docId)) {
        case ForgettableIntake.AlreadyForgotten gone -> {
          return List.of();
        }
        case ForgettableIntake.Declared declared -> {
          return forgettable.admit(
              declared, object, accountId, datasourceId, docId, filename, admission::admit);
        }
        case ForgettableIntake.Ordinary ordinary -> {}
      }
    }
    DocumentReference ref =
        saveIntakeCopy(
            store,
            accountId,
            datasourceId,
            docId,
            filename,
            FileStorageReference.newBuilder()
                .setDriveName(accountId + ":intake")
                .setObjectKey(object.key())
                .setEtag(object.etag())
                .setVersionId(object.versionId())
                .setSizeBytes(object.size())
                .build());
    return admission.admit(intakeOf(accountId, datasourceId, ref, clock.instant()));
  }

  /**
   * Saves the intake copy of an intake object: one blob that is a reference to the object, at the
   * datasource's address of graph {@code intake:<accountId>}, kept. Replay saves one the same way
   * when it fetches a settled document's source again (decision 1524).
   */
  public static DocumentReference saveIntakeCopy(
      PipeDocStore store,
      String accountId,
      String datasourceId,
      String docId,
      String filename,
      FileStorageReference object) {
    PipeDoc doc =
        PipeDoc.newBuilder()
            .setDocId(docId)
            .setOwnership(OwnershipContext.newBuilder().setAccountId(accountId))
            .setBlobBag(
                BlobBag.newBuilder()
                    .setBlob(
                        Blob.newBuilder()
                            .setBlobId("original")
                            .setFilename(filename)
                            .setStorageRef(object)))
            .build();
    return store
        .save(
            SavePipeDocRequest.newBuilder()
                .setPipedoc(doc)
                .setAccountId(accountId)
                .setUseDatasourceId(true)
                .setDatasourceId(datasourceId)
                .setGraphId(GraphIds.intakeGraphId(accountId))
                .setKeep(true)
                .build())
        .getDocumentRef();
  }

  /**
   * The intake of a saved intake copy, by reference: what admission stamps and starts. Replay
   * builds its intakes here too, from the intake copies its query finds.
   */
  public static Intake intakeOf(
      String accountId, String datasourceId, DocumentReference ref, Instant now) {
    PipeStream stream =
        PipeStream.newBuilder()
            .setStreamId(ref.getDocId())
            .setDocumentRef(ref)
            .setMetadata(arrival(accountId, datasourceId, now))
            .build();
    return new Intake(accountId, datasourceId, ref.getDocId(), stream);
  }

  /**
   * The metadata every intake stream starts with: where and when it arrived, and the trace the
   * intake runs in.
   */
  static StreamMetadata arrival(String accountId, String datasourceId, Instant now) {
    // The span current here (the intake or replay function's) becomes the document's trace: every
    // later hop parents its spans on the context the stream carries (decision 1793).
    String traceparent = Traceparent.current();
    return StreamMetadata.newBuilder()
        .setAccountId(accountId)
        .setDatasourceId(datasourceId)
        .setTraceparent(traceparent)
        .setTraceId(Traceparent.traceId(traceparent))
        .setCreatedAt(
            Timestamp.newBuilder().setSeconds(now.getEpochSecond()).setNanos(now.getNano()))
        .build();
  }

  /** The created objects of an S3 notification; test events and other event types carry none. */
  static List<IntakeObject> objectsOf(String s3EventJson) {
    JsonNode event;
    try {
      event = JSON.readTree(s3EventJson);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "S3 notification is not JSON: " + e.getOriginalMessage(), e);
    }
    List<IntakeObject> objects = new ArrayList<>();
    JsonNode records = event == null ? null : event.get("Records");
    if (records == null || !records.isArray()) {
      // s3:TestEvent, sent once when the notification is configured, has no Records.
      return objects;
    }
    for (int i = 0; i < records.size(); i++) {
      JsonNode r = records.get(i);
      if (!r.path("eventName").asText().startsWith("ObjectCreated:")) {
        continue;
      }
      JsonNode s3 = r.path("s3");
      String bucket = s3.path("bucket").path("name").asText("");
      String rawKey = s3.path("object").path("key").asText("");
      if (bucket.isEmpty() || rawKey.isEmpty()) {
        throw new IllegalArgumentException(
            "Records[" + i + "].s3 must name bucket.name and object.key");
      }
      // S3 URL-encodes keys in notifications, with '+' for a space.
      String key = URLDecoder.decode(rawKey, StandardCharsets.UTF_8);
      objects.add(
          new IntakeObject(
              bucket,
              key,
              s3.path("object").path("size").asLong(0),
              s3.path("object").path("eTag").asText(""),
              s3.path("object").path("versionId").asText("")));
    }
    return objects;
  }
}
