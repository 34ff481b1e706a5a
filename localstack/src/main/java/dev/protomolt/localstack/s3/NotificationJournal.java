package dev.protomolt.localstack.s3;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * The durable queue between S3Proxy and the notified functions: every object creation that a rule
 * matches is appended (and forced to disk) before the S3 request returns, and a separate cursor
 * file records the last sequence whose functions all returned. After a restart everything past
 * the cursor is delivered again, which is what makes delivery at least once.
 */
public final class NotificationJournal implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path journalFile;
  private final Path cursorFile;
  private final FileChannel journal;
  private final Deque<Entry> pending = new ArrayDeque<>();
  private long lastSequence;
  private long delivered;

  /** One journalled creation and the functions it must reach. */
  public record Entry(ObjectCreated created, List<String> functions) {
    public Entry {
      functions = List.copyOf(functions);
    }
  }

  private NotificationJournal(Path dir) throws IOException {
    Files.createDirectories(dir);
    this.journalFile = dir.resolve("journal.jsonl");
    this.cursorFile = dir.resolve("delivered");
    this.delivered =
        Files.exists(cursorFile) ? Long.parseLong(Files.readString(cursorFile).trim()) : 0L;
    dropTornTail(journalFile);
    List<Entry> all = readAll(journalFile);
    for (Entry entry : all) {
      lastSequence = Math.max(lastSequence, entry.created().sequence());
      if (entry.created().sequence() > delivered) {
        pending.add(entry);
      }
    }
    if (pending.isEmpty() && !all.isEmpty()) {
      // Everything was delivered: start the file afresh so it does not grow forever.
      Files.writeString(journalFile, "");
    }
    this.journal =
        FileChannel.open(
            journalFile,
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.APPEND);
  }

  /** Opens (or creates) the journal in {@code dir}. */
  public static NotificationJournal open(Path dir) {
    try {
      return new NotificationJournal(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the S3 notification journal in " + dir, e);
    }
  }

  /** Appends a creation for {@code functions}, assigning it the next sequence number. */
  public synchronized Entry append(
      String eventName,
      String bucket,
      String key,
      long size,
      String eTag,
      Instant eventTime,
      List<String> functions) {
    ObjectCreated created =
        new ObjectCreated(lastSequence + 1, eventName, bucket, key, size, eTag, eventTime);
    Entry entry = new Entry(created, functions);
    ObjectNode line = JSON.createObjectNode();
    line.put("sequence", created.sequence());
    line.put("eventName", created.eventName());
    line.put("bucket", created.bucket());
    line.put("key", created.key());
    line.put("size", created.size());
    line.put("eTag", created.eTag());
    line.put("eventTime", created.eventTime().toString());
    functions.forEach(line.putArray("functions")::add);
    try {
      journal.write(ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.UTF_8)));
      journal.force(false);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot append to " + journalFile, e);
    }
    lastSequence = created.sequence();
    pending.add(entry);
    notifyAll();
    return entry;
  }

  /** The oldest creation not yet delivered, if any. */
  public synchronized Optional<Entry> next() {
    return Optional.ofNullable(pending.peekFirst());
  }

  /** Waits up to {@code millis} for a pending creation. */
  public synchronized Optional<Entry> awaitNext(long millis) throws InterruptedException {
    if (pending.isEmpty()) {
      wait(millis);
    }
    return next();
  }

  /** Records that every function of {@code entry} returned, so it is never delivered again. */
  public synchronized void markDelivered(Entry entry) {
    if (!entry.equals(pending.peekFirst())) {
      throw new IllegalStateException(
          "entry "
              + entry.created().sequence()
              + " is not the oldest pending one; deliveries must complete in order");
    }
    Path temp = cursorFile.resolveSibling("delivered.tmp");
    try {
      Files.writeString(temp, Long.toString(entry.created().sequence()));
      Files.move(
          temp, cursorFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot record delivery in " + cursorFile, e);
    }
    delivered = entry.created().sequence();
    pending.removeFirst();
  }

  public synchronized long deliveredSequence() {
    return delivered;
  }

  public synchronized int pendingCount() {
    return pending.size();
  }

  @Override
  public synchronized void close() {
    try {
      journal.close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot close " + journalFile, e);
    }
    notifyAll();
  }

  private static void dropTornTail(Path file) throws IOException {
    if (!Files.exists(file)) {
      return;
    }
    // A crash mid-append leaves a line without its newline; the next append would glue onto it.
    byte[] bytes = Files.readAllBytes(file);
    int end = bytes.length;
    while (end > 0 && bytes[end - 1] != '\n') {
      end--;
    }
    if (end < bytes.length) {
      try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
        channel.truncate(end);
      }
    }
  }

  private static List<Entry> readAll(Path file) throws IOException {
    List<Entry> entries = new ArrayList<>();
    if (!Files.exists(file)) {
      return entries;
    }
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode node;
      try {
        node = JSON.readTree(line);
      } catch (IOException torn) {
        // A line cut short by a crash mid-append: its S3 request never returned success.
        continue;
      }
      List<String> functions = new ArrayList<>();
      node.path("functions").forEach(f -> functions.add(f.asText()));
      entries.add(
          new Entry(
              new ObjectCreated(
                  node.path("sequence").asLong(),
                  node.path("eventName").asText(),
                  node.path("bucket").asText(),
                  node.path("key").asText(),
                  node.path("size").asLong(),
                  node.path("eTag").asText(),
                  Instant.parse(node.path("eventTime").asText())),
              functions));
    }
    return entries;
  }
}
