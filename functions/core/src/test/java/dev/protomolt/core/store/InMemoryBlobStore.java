package dev.protomolt.core.store;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** A {@link BlobStore} in a map, for tests of code above the store. Copies are server-side. */
public final class InMemoryBlobStore implements BlobStore {

  private final Map<String, byte[]> objects = new ConcurrentHashMap<>();

  private static String id(ObjectAddress address) {
    return address.drive().bucket() + "/" + address.key();
  }

  @Override
  public void put(ObjectAddress to, byte[] bytes, boolean verifyChecksum) {
    objects.put(id(to), bytes.clone());
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
  public java.util.List<ObjectAddress> deleteAll(java.util.List<ObjectAddress> addresses) {
    addresses.forEach(this::delete);
    return java.util.List.of();
  }

  /** Removes an object, as an operator or a purge would. */
  public void delete(ObjectAddress address) {
    objects.remove(id(address));
  }
}
