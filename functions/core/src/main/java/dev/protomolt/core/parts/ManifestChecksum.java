package dev.protomolt.core.parts;

import dev.protomolt.proto.repository.v1.PartManifestEntry;
import dev.protomolt.proto.repository.v1.PipeDocManifest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;

/**
 * The document checksum: SHA-256 over each entry's (part, sub_key, state, sha256), in manifest
 * order, computed from the manifest alone so dedupe never fetches bytes. Each value is written with
 * a length or fixed width so no two different entry lists can feed the digest the same bytes.
 * Timestamps, keys, sizes and provenance are left out on purpose: they change when the same content
 * is stored again and must not defeat dedupe.
 */
public final class ManifestChecksum {
  private ManifestChecksum() {}

  public static String of(List<PartManifestEntry> entries) {
    MessageDigest digest = Sha256Hex.newDigest();
    for (PartManifestEntry entry : entries) {
      putInt(digest, entry.getPartValue());
      putString(digest, entry.getSubKey());
      putInt(digest, entry.getStateValue());
      putString(digest, entry.getSha256());
    }
    return Sha256Hex.hex(digest.digest());
  }

  public static String of(PipeDocManifest manifest) {
    return of(manifest.getEntriesList());
  }

  /** True when the manifest's recorded checksum matches its entries. */
  public static boolean matches(PipeDocManifest manifest) {
    return of(manifest).equals(manifest.getChecksum());
  }

  private static void putInt(MessageDigest digest, int value) {
    digest.update((byte) (value >>> 24));
    digest.update((byte) (value >>> 16));
    digest.update((byte) (value >>> 8));
    digest.update((byte) value);
  }

  private static void putString(MessageDigest digest, String value) {
    byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
    putInt(digest, utf8.length);
    digest.update(utf8);
  }
}
