package dev.protomolt.gateway;

import dev.protomolt.core.parts.PartMask;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.repository.v1.PipeDocManifest;
import java.util.Objects;

/**
 * A dispatch's stream with its document in the body, as the module will see it.
 *
 * @param stream the stream with {@code document} set
 * @param storedManifest the manifest of the stored copy read, or null when the body came inline
 * @param readMask the parts read (the writer's observed mask for the diff)
 * @param blobContentIncluded whether blob bytes are in the body
 */
public record HydratedUnit(
    PipeStream stream,
    PipeDocManifest storedManifest,
    PartMask readMask,
    boolean blobContentIncluded) {
  public HydratedUnit {
    Objects.requireNonNull(stream, "stream");
    Objects.requireNonNull(readMask, "readMask");
  }

  public boolean fromStore() {
    return storedManifest != null;
  }
}
