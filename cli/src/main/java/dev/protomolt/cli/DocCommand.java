package dev.protomolt.cli;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.util.JsonFormat;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeDocPart;
import dev.protomolt.proto.repository.v1.GetPipeDocManifestRequest;
import dev.protomolt.proto.repository.v1.GetPipeDocManifestResponse;
import dev.protomolt.proto.repository.v1.GetPipeDocRequest;
import dev.protomolt.proto.repository.v1.GetPipeDocResponse;
import dev.protomolt.proto.repository.v1.PipeDocServiceGrpc;
import dev.protomolt.proto.repository.v1.PipeDocServiceGrpc.PipeDocServiceBlockingStub;
import dev.protomolt.proto.repository.v1.ReplayCandidate;
import dev.protomolt.proto.repository.v1.StreamDocumentsForReplayRequest;
import io.grpc.ManagedChannel;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code protomolt doc get|manifest}: one stored copy of a document through the document store's
 * gRPC door. Without {@code --graph}/{@code --node} the copy is the intake copy (the upload as
 * intake stored it); with them, the copy a graph node saved.
 */
@Command(
    name = "doc",
    mixinStandardHelpOptions = true,
    description = "Read a stored document or its manifest from the running platform.",
    subcommands = {DocCommand.Get.class, DocCommand.Manifest.class})
final class DocCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** Which copy, and the call plumbing both subcommands share. */
  abstract static class DocCall implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Mixin GatewayOption gateway;

    @Parameters(paramLabel = "DOC_ID")
    String docId;

    @Option(names = "--account", required = true, paramLabel = "A")
    String account;

    @Option(names = "--graph", paramLabel = "G", description = "The graph whose copy to read.")
    String graphId;

    @Option(names = "--node", paramLabel = "N", description = "The graph node whose copy to read.")
    String nodeId;

    @Override
    public final Integer call() {
      if ((graphId == null) != (nodeId == null)) {
        throw CommandFailure.refused(
            (graphId == null ? "--node" : "--graph")
                + ": must be given"
                + " together with "
                + (graphId == null ? "--graph" : "--node")
                + " (a graph node's"
                + " copy); give neither for the intake copy");
      }
      ManagedChannel channel = gateway.open();
      try {
        PipeDocServiceBlockingStub docs = PipeDocServiceGrpc.newBlockingStub(channel);
        return run(docs, reference(docs), spec.commandLine().getOut());
      } finally {
        channel.shutdownNow();
      }
    }

    abstract int run(PipeDocServiceBlockingStub docs, DocumentReference ref, PrintWriter out);

    static PipeDocServiceBlockingStub timed(PipeDocServiceBlockingStub docs) {
      return docs.withDeadlineAfter(30, TimeUnit.SECONDS);
    }

    private DocumentReference reference(PipeDocServiceBlockingStub docs) {
      if (graphId != null) {
        return DocumentReference.newBuilder()
            .setDocId(docId)
            .setAccountId(account)
            .setGraphId(graphId)
            .setGraphAddressId(nodeId)
            .build();
      }
      // The replay listing is the door's one way to find a document's intake copy by id alone.
      List<ReplayCandidate> copies =
          gateway.call(
              "document '" + docId + "'",
              () -> {
                List<ReplayCandidate> found = new ArrayList<>();
                timed(docs)
                    .streamDocumentsForReplay(
                        StreamDocumentsForReplayRequest.newBuilder()
                            .setAccountId(account)
                            .addDocIds(docId)
                            .build())
                    .forEachRemaining(found::add);
                return found;
              });
      if (copies.isEmpty()) {
        throw CommandFailure.refused(
            "DOC_ID: no document '"
                + docId
                + "' in account '"
                + account
                + "' — `protomolt ingest` prints the id of each document it uploads");
      }
      return copies.getLast().getDocumentRef();
    }
  }

  @Command(
      name = "get",
      mixinStandardHelpOptions = true,
      description = "Print a stored document as protobuf JSON.")
  static final class Get extends DocCall {

    @Option(
        names = "--part",
        paramLabel = "P",
        converter = PartConverter.class,
        description = "Only these parts: CORE, BLOBS, CHUNKS, PARSED (repeatable; default: all).")
    List<PipeDocPart> parts = new ArrayList<>();

    @Option(names = "--out", paramLabel = "FILE", description = "Write the JSON to FILE.")
    Path outFile;

    @Override
    int run(PipeDocServiceBlockingStub docs, DocumentReference ref, PrintWriter out) {
      GetPipeDocResponse got =
          gateway.call(
              "document '" + docId + "'",
              () ->
                  timed(docs)
                      .getPipeDoc(
                          GetPipeDocRequest.newBuilder()
                              .setDocumentRef(ref)
                              .addAllParts(parts)
                              .build()));
      String json = json(got.getPipedoc());
      if (outFile == null) {
        out.println(json);
      } else {
        try {
          Files.writeString(outFile, json + System.lineSeparator());
        } catch (IOException e) {
          throw CommandFailure.refused("--out: cannot write " + outFile + ": " + e.getMessage());
        }
        out.printf(
            "document '%s' (%s at %s, parts %s) written to %s%n",
            docId, ref.getGraphId(), ref.getGraphAddressId(), got.getPartsReturnedList(), outFile);
      }
      out.flush();
      return 0;
    }
  }

  @Command(
      name = "manifest",
      mixinStandardHelpOptions = true,
      description = "Print which parts a stored document has, with their sizes and checksums.")
  static final class Manifest extends DocCall {

    @Override
    int run(PipeDocServiceBlockingStub docs, DocumentReference ref, PrintWriter out) {
      GetPipeDocManifestResponse got =
          gateway.call(
              "document '" + docId + "'",
              () ->
                  timed(docs)
                      .getPipeDocManifest(
                          GetPipeDocManifestRequest.newBuilder().setDocumentRef(ref).build()));
      out.println(json(got));
      out.flush();
      return 0;
    }
  }

  /** {@code CORE} or {@code PIPE_DOC_PART_CORE}, any case. */
  static final class PartConverter implements ITypeConverter<PipeDocPart> {
    @Override
    public PipeDocPart convert(String value) {
      String name = value.toUpperCase(Locale.ROOT);
      try {
        PipeDocPart part =
            PipeDocPart.valueOf(name.startsWith("PIPE_DOC_PART_") ? name : "PIPE_DOC_PART_" + name);
        if (part != PipeDocPart.PIPE_DOC_PART_UNSPECIFIED && part != PipeDocPart.UNRECOGNIZED) {
          return part;
        }
      } catch (IllegalArgumentException e) {
        // Falls through to the refusal below, which lists the accepted names.
      }
      throw new IllegalArgumentException(
          "must be CORE, BLOBS, CHUNKS or PARSED, got '" + value + "'");
    }
  }

  static String json(MessageOrBuilder message) {
    try {
      return JsonFormat.printer().print(message);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("a stored document always prints: " + e.getMessage(), e);
    }
  }
}
