package dev.protomolt.module.samples.sink;

import com.google.protobuf.util.JsonFormat;
import dev.protomolt.proto.events.v1.DocumentIndexedEvent;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/** Appends each receipt as one line of proto3 JSON, so a person or a script can read them. */
public final class JsonLinesReceiptSink implements ReceiptSink {

  private final Path file;
  private final JsonFormat.Printer printer = JsonFormat.printer().omittingInsignificantWhitespace();

  public JsonLinesReceiptSink(Path file) {
    this.file = file;
  }

  @Override
  public synchronized void emit(DocumentIndexedEvent receipt) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Files.writeString(
        file,
        printer.print(receipt) + "\n",
        StandardCharsets.UTF_8,
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
  }

  /** Reads every receipt back, in the order written. */
  public List<DocumentIndexedEvent> readAll() throws IOException {
    List<DocumentIndexedEvent> receipts = new ArrayList<>();
    if (!Files.exists(file)) {
      return receipts;
    }
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (!line.isBlank()) {
        DocumentIndexedEvent.Builder receipt = DocumentIndexedEvent.newBuilder();
        JsonFormat.parser().merge(line, receipt);
        receipts.add(receipt.build());
      }
    }
    return receipts;
  }
}
