package dev.protomolt.core.store;

import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/** A {@link BlobStore} in a map, for tests of code above the store. Copies are server-side. */
public final class InMemoryBlobStore implements BlobStore {

  private final Map<String, byte[]> objects = new ConcurrentHashMap<>();
  private final Map<String, Instant> writtenAt = new ConcurrentHashMap<>();
  private final Clock clock;

  public InMemoryBlobStore() {
    this(Clock.systemUTC());
  }

  /** A store whose listing reports each object written at {@code clock}'s instant. */
  public InMemoryBlobStore(Clock clock) {
    this.clock = clock;
  }

  private static String id(ObjectAddress address) {
    return address.drive().bucket() + "/" + address.key();
  }

  @Override
  public void put(ObjectAddress to, byte[] bytes, boolean verifyChecksum) {
    objects.put(id(to), bytes.clone());
    writtenAt.put(id(to), clock.instant());
  }

  @Override
  public void create(ObjectAddress to, byte[] bytes, boolean verifyChecksum) {
    byte[] there = objects.putIfAbsent(id(to), bytes.clone());
    if (there == null) {
      writtenAt.put(id(to), clock.instant());
    } else if (!Arrays.equals(there, bytes)) {
      throw new ObjectExistsException(to, null);
    }
  }

  @Override
  public byte[] get(ObjectAddress from) {
    byte[] bytes = objects.get(id(from));
    if (bytes == null) {
      throw new ObjectMissingException(from, null);
    }
    return bytes.clone();
  }

  @Override
  public CopyMode copy(ObjectAddress from, ObjectAddress to) {
    put(to, get(from), false);
    return CopyMode.SERVER_SIDE;
  }

  @Override
  public List<ObjectAddress> deleteAll(List<ObjectAddress> addresses) {
    addresses.forEach(this::delete);
    return List.of();
  }

  @Override
  public void list(Drive drive, Consumer<StoredObject> each) {
    String start = drive.bucket() + "/" + drive.prefix();
    objects.keySet().stream()
        .filter(id -> id.startsWith(start))
        .sorted()
        .forEach(
            id ->
                each.accept(
                    new StoredObject(
                        id.substring(drive.bucket().length() + 1), writtenAt.get(id))));
  }

  /** Removes an object, as an operator or a purge would. */
  public void delete(ObjectAddress address) {
    objects.remove(id(address));
    writtenAt.remove(id(address));
  }
}
