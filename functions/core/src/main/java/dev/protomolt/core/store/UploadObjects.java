package dev.protomolt.core.store;

import java.util.Map;
import java.util.Optional;

/**
 * The uploads in an account's intake drive, as intake sees them: the user metadata S3 keeps with
 * an object (where a right-to-be-forgotten declaration travels, decision 1747), its bytes, and
 * its deletion once the document has been admitted without a stored copy.
 */
public interface UploadObjects {

  /**
   * The object's user metadata ({@code x-amz-meta-*} without the prefix, names lower-cased), or
   * empty when there is no such object.
   */
  Optional<Map<String, String>> metadata(ObjectAddress upload);

  /** What S3 says an object is now: its entity tag, version (blank when unversioned) and size. */
  record Current(String etag, String versionId, long sizeBytes) {}

  /**
   * The object as it is now, or, with a {@code versionId}, that version of it; empty when there
   * is no such object or version.
   */
  Optional<Current> current(ObjectAddress upload, String versionId);

  /** The object's bytes; {@link ObjectMissingException} when it is gone. */
  byte[] read(ObjectAddress upload);

  /** Deletes the object; deleting an object already gone succeeds. */
  void delete(ObjectAddress upload);
}
