package dev.protomolt.gateway;

import dev.protomolt.core.doclog.DocumentLog;
import dev.protomolt.core.doclog.DocumentLogRefusal;
import dev.protomolt.core.doclog.DocumentLogState;
import dev.protomolt.core.doclog.DocumentLogStore;
import dev.protomolt.core.doclog.DocumentPart;
import dev.protomolt.core.doclog.LogKey;
import dev.protomolt.core.doclog.LogOriginals;
import dev.protomolt.core.doclog.LogPartIndex;
import dev.protomolt.core.doclog.LogPlacement;
import dev.protomolt.core.doclog.PartAnnotation;
import dev.protomolt.core.doclog.WindowSpec;
import dev.protomolt.core.parts.Sha256Hex;
import dev.protomolt.proto.repository.v1.AnnotatePartRequest;
import dev.protomolt.proto.repository.v1.AppendLogRequest;
import dev.protomolt.proto.repository.v1.AppendLogResponse;
import dev.protomolt.proto.repository.v1.CompleteLogRequest;
import dev.protomolt.proto.repository.v1.DocumentLogServiceGrpc;
import dev.protomolt.proto.repository.v1.GetLogRequest;
import dev.protomolt.proto.repository.v1.GetLogResponse;
import dev.protomolt.proto.repository.v1.ListLogPartsRequest;
import dev.protomolt.proto.repository.v1.ListLogPartsResponse;
import dev.protomolt.proto.repository.v1.LogPart;
import dev.protomolt.proto.repository.v1.LogRef;
import dev.protomolt.proto.repository.v1.LogStatus;
import dev.protomolt.proto.repository.v1.OpenLogRequest;
import dev.protomolt.proto.repository.v1.PartSpan;
import dev.protomolt.proto.repository.v1.SearchLogsRequest;
import dev.protomolt.proto.repository.v1.SearchLogsResponse;
import dev.protomolt.repository.doclog.PostgresPartAnnotations;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The gRPC door of document logs: open, append, complete, get, list parts, search and annotate. It
 * checks the request's fields, calls {@link DocumentLog} or the annotations, and maps every refusal
 * to a status whose description names the field and the rule. Writes into the platform's own
 * namespaces are refused by {@link LogPlacement}.
 */
public final class DocumentLogGrpcService
    extends DocumentLogServiceGrpc.DocumentLogServiceImplBase {

  static final int DEFAULT_PART_LIMIT = 100;
  static final int DEFAULT_SEARCH_LIMIT = 20;
  static final int MAX_LIMIT = 1000;

  private final DocumentLog log;
  private final DocumentLogStore store;
  private final LogPartIndex index;
  private final LogOriginals originals;
  private final PostgresPartAnnotations annotations;

  /** A door whose seals keep no original object. */
  public DocumentLogGrpcService(
      DocumentLogStore store, LogPartIndex index, PostgresPartAnnotations annotations) {
    this(new DocumentLog(store, index), store, index, LogOriginals.NONE, annotations);
  }

  /**
   * @param log the writer, sealing through {@code originals}
   * @param originals where sealed logs' originals are read back from
   */
  public DocumentLogGrpcService(
      DocumentLog log,
      DocumentLogStore store,
      LogPartIndex index,
      LogOriginals originals,
      PostgresPartAnnotations annotations) {
    this.log = Objects.requireNonNull(log, "log: must not be null");
    this.store = Objects.requireNonNull(store, "store: must not be null");
    this.index = Objects.requireNonNull(index, "index: must not be null");
    this.originals = Objects.requireNonNull(originals, "originals: must not be null");
    this.annotations = Objects.requireNonNull(annotations, "annotations: must not be null");
  }

  @Override
  public void openLog(OpenLogRequest request, StreamObserver<LogStatus> responses) {
    answer(
        responses,
        () -> {
          LogKey key = writableKey(request.getLog());
          WindowSpec windows =
              request.getWindowSize() == 0 && request.getWindowOverlap() == 0
                  ? WindowSpec.DEFAULT
                  : windows(request.getWindowSize(), request.getWindowOverlap());
          return status(log.open(key, windows));
        });
  }

  @Override
  public void appendLog(AppendLogRequest request, StreamObserver<AppendLogResponse> responses) {
    answer(
        responses,
        () -> {
          LogKey key = writableKey(request.getLog());
          DocumentLog.Appended appended = log.append(key, request.getText(), request.getOffset());
          AppendLogResponse.Builder reply =
              AppendLogResponse.newBuilder()
                  .setSkipped(appended.skipped())
                  .setAdded(appended.added())
                  .setLength(appended.length());
          appended.emitted().forEach(p -> reply.addPartsWritten(p.index()));
          return reply.build();
        });
  }

  @Override
  public void completeLog(CompleteLogRequest request, StreamObserver<LogStatus> responses) {
    answer(
        responses,
        () -> {
          LogKey key = writableKey(request.getLog());
          log.seal(key);
          return status(loaded(key));
        });
  }

  @Override
  public void getLog(GetLogRequest request, StreamObserver<GetLogResponse> responses) {
    answer(
        responses,
        () -> {
          LogKey key = key(request.getLog());
          if (request.getFromOffset() < 0) {
            throw new IllegalArgumentException(
                "from_offset: must not be negative (got " + request.getFromOffset() + ")");
          }
          DocumentLogState state = loaded(key);
          String text = request.getOriginal() ? original(state) : log.read(key).orElse("");
          long from = Math.min(request.getFromOffset(), text.length());
          GetLogResponse.Builder reply =
              GetLogResponse.newBuilder()
                  .setStatus(status(state))
                  .setText(text.substring((int) from))
                  .setFromOffset(from);
          if (request.getOriginal()) {
            reply.setOriginal(state.seal().original());
          }
          return reply.build();
        });
  }

  @Override
  public void listLogParts(
      ListLogPartsRequest request, StreamObserver<ListLogPartsResponse> responses) {
    answer(
        responses,
        () -> {
          LogKey key = key(request.getLog());
          if (request.getFromIndex() < 0) {
            throw new IllegalArgumentException(
                "from_index: must not be negative (got " + request.getFromIndex() + ")");
          }
          int limit = limit(request.getLimit(), DEFAULT_PART_LIMIT);
          DocumentLogState state = loaded(key);
          int to = (int) Math.min((long) request.getFromIndex() + limit, state.nextPartIndex());
          Map<Integer, List<PartAnnotation>> notes = new HashMap<>();
          for (PartAnnotation a : annotations.of(key, request.getFromIndex(), to)) {
            notes.computeIfAbsent(a.partIndex(), i -> new ArrayList<>()).add(a);
          }
          ListLogPartsResponse.Builder reply =
              ListLogPartsResponse.newBuilder().setStatus(status(state));
          for (DocumentPart part : store.parts(key)) {
            if (part.index() >= request.getFromIndex() && part.index() < to) {
              reply.addParts(
                  part(key, part.index(), part.start(), part.text(), part.sha256())
                      .addAllAnnotations(
                          notes.getOrDefault(part.index(), List.of()).stream()
                              .map(DocumentLogGrpcService::annotation)
                              .toList()));
            }
          }
          return reply.build();
        });
  }

  @Override
  public void searchLogs(SearchLogsRequest request, StreamObserver<SearchLogsResponse> responses) {
    answer(
        responses,
        () -> {
          int limit = limit(request.getLimit(), DEFAULT_SEARCH_LIMIT);
          List<LogPartIndex.Hit> hits;
          try {
            hits = index.query(request.getQuery(), limit);
          } catch (IllegalArgumentException e) {
            // The index names its argument "terms"; the caller knows it as the request's query.
            throw new IllegalArgumentException(e.getMessage().replaceFirst("^terms:", "query:"), e);
          }
          SearchLogsResponse.Builder reply = SearchLogsResponse.newBuilder();
          for (LogPartIndex.Hit hit : hits) {
            reply.addHits(part(hit.key(), hit.index(), hit.start(), hit.text(), ""));
          }
          return reply.build();
        });
  }

  @Override
  public void annotatePart(
      AnnotatePartRequest request,
      StreamObserver<dev.protomolt.proto.repository.v1.PartAnnotation> responses) {
    answer(
        responses,
        () -> {
          LogKey key = key(request.getLog());
          PartAnnotation.Span span =
              request.hasSpan()
                  ? span(request.getSpan().getStart(), request.getSpan().getEnd())
                  : null;
          return annotation(
              annotations.add(
                  key,
                  request.getPartIndex(),
                  request.getKind(),
                  request.getAuthor(),
                  request.getBody(),
                  span));
        });
  }

  /**
   * The sealed log's stored original, decoded from UTF-8 once its bytes hash to the seal's SHA-256;
   * a mismatch is {@code DATA_LOSS}, never an answer.
   */
  private String original(DocumentLogState state) {
    if (!state.sealed()) {
      throw Status.FAILED_PRECONDITION
          .withDescription(
              "original: log "
                  + state.key()
                  + " is not sealed; only a sealed log has an original (read it without"
                  + " original to see the text so far)")
          .asRuntimeException();
    }
    if (state.seal().original().isEmpty()) {
      throw Status.FAILED_PRECONDITION
          .withDescription(
              "original: log "
                  + state.key()
                  + " was sealed without storing its original (its writer had no log bucket);"
                  + " read it without original to reassemble the text from its parts")
          .asRuntimeException();
    }
    byte[] bytes = originals.get(state.seal().original());
    String sha256 = Sha256Hex.of(bytes);
    if (!sha256.equals(state.seal().sha256())) {
      throw Status.DATA_LOSS
          .withDescription(
              "original: the object "
                  + state.seal().original()
                  + " hashes to "
                  + sha256
                  + " but log "
                  + state.key()
                  + " was sealed with SHA-256 "
                  + state.seal().sha256())
          .asRuntimeException();
    }
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private DocumentLogState loaded(LogKey key) {
    return store
        .load(key)
        .orElseThrow(
            () ->
                Status.NOT_FOUND
                    .withDescription("log: no log is open under " + key)
                    .asRuntimeException());
  }

  private static LogKey key(LogRef ref) {
    try {
      return new LogKey(ref.getCollection(), ref.getPath());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("log." + e.getMessage(), e);
    }
  }

  private static LogKey writableKey(LogRef ref) {
    LogKey key = key(ref);
    LogPlacement.checkWritable(key);
    return key;
  }

  private static WindowSpec windows(int size, int overlap) {
    try {
      return new WindowSpec(size, overlap);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("window_" + e.getMessage(), e);
    }
  }

  private static PartAnnotation.Span span(int start, int end) {
    return new PartAnnotation.Span(start, end);
  }

  private static int limit(int requested, int fallback) {
    if (requested < 0 || requested > MAX_LIMIT) {
      throw new IllegalArgumentException(
          "limit: must be between 0 (the default) and " + MAX_LIMIT + " (got " + requested + ")");
    }
    return requested == 0 ? fallback : requested;
  }

  private static LogRef ref(LogKey key) {
    return LogRef.newBuilder().setCollection(key.collection()).setPath(key.path()).build();
  }

  private static LogPart.Builder part(
      LogKey key, int index, long start, String text, String sha256) {
    return LogPart.newBuilder()
        .setLog(ref(key))
        .setIndex(index)
        .setStart(start)
        .setText(text)
        .setSha256(sha256);
  }

  private static LogStatus status(DocumentLogState state) {
    LogStatus.Builder status =
        LogStatus.newBuilder()
            .setLog(ref(state.key()))
            .setWindowSize(state.windows().size())
            .setWindowOverlap(state.windows().overlap())
            .setLength(state.length())
            .setPartsWritten(state.nextPartIndex())
            .setSealed(state.sealed());
    if (state.sealed()) {
      status.setSha256(state.seal().sha256()).setOriginal(state.seal().original());
    }
    return status.build();
  }

  private static dev.protomolt.proto.repository.v1.PartAnnotation annotation(PartAnnotation a) {
    var out =
        dev.protomolt.proto.repository.v1.PartAnnotation.newBuilder()
            .setId(a.id().toString())
            .setLog(ref(a.key()))
            .setPartIndex(a.partIndex())
            .setKind(a.kind())
            .setAuthor(a.author())
            .setBody(a.body())
            .setCreatedAtEpochMs(a.createdAt().toEpochMilli());
    if (a.span() != null) {
      out.setSpan(PartSpan.newBuilder().setStart(a.span().start()).setEnd(a.span().end()));
    }
    return out.build();
  }

  private static <R> void answer(StreamObserver<R> responses, Supplier<R> call) {
    R reply;
    try {
      reply = call.get();
    } catch (RuntimeException e) {
      responses.onError(toStatus(e));
      return;
    }
    responses.onNext(reply);
    responses.onCompleted();
  }

  /** The status a caller sees for each refusal; the message always comes along. */
  static StatusRuntimeException toStatus(RuntimeException e) {
    if (e instanceof StatusRuntimeException already) {
      return already;
    }
    Status status =
        switch (e) {
          case DocumentLogRefusal refusal ->
              switch (refusal.reason()) {
                case NOT_OPEN -> Status.NOT_FOUND;
                case CONTENDED -> Status.ABORTED;
                case GAP, CONFLICT, SEALED, WINDOWS_DIFFER -> Status.FAILED_PRECONDITION;
              };
          case LogPlacement.Refused ignored -> Status.PERMISSION_DENIED;
          case IllegalArgumentException ignored -> Status.INVALID_ARGUMENT;
          default -> Status.INTERNAL;
        };
    return status.withDescription(e.getMessage()).withCause(e).asRuntimeException();
  }
}
