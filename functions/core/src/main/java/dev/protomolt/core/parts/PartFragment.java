package dev.protomolt.core.parts;

import dev.protomolt.proto.data.v1.PipeDocPart;

/**
 * One part object produced by a split: its bytes are a valid serialized PipeDoc holding only the
 * part's fields plus {@code doc_id}.
 *
 * @param part      which part
 * @param subKey    the chunk set's sub key for CHUNKS, otherwise {@code ""}
 * @param ordinal   the chunk set's position for CHUNKS, otherwise 0
 * @param objectKey where the object is stored
 * @param bytes     the serialized fragment; callers must not modify the array
 * @param sha256    lower-case hex SHA-256 of {@code bytes}
 */
public record PartFragment(
    PipeDocPart part, String subKey, int ordinal, String objectKey, byte[] bytes, String sha256) {

  public long sizeBytes() {
    return bytes.length;
  }

  @Override
  public String toString() {
    return "PartFragment["
        + PartNames.shortName(part)
        + (subKey.isEmpty() ? "" : " " + subKey)
        + ", "
        + objectKey
        + ", "
        + bytes.length
        + " bytes, sha256="
        + sha256
        + "]";
  }
}
