package dev.protomolt.core.parts;

import dev.protomolt.proto.data.v1.PipeDocPart;
import dev.protomolt.proto.repository.v1.PipeDocManifest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The result of splitting a document: the manifest (entries for every part, EMPTY ones included,
 * without timestamps or provenance, which the store stamps) and one fragment per PRESENT entry, in
 * manifest order.
 */
public record SplitDocument(PipeDocManifest manifest, List<PartFragment> fragments) {
  public SplitDocument {
    fragments = List.copyOf(fragments);
  }

  /** The fragment of a single-object part (CORE, BLOBS, PARSED), if the part is not empty. */
  public Optional<PartFragment> fragment(PipeDocPart part) {
    return fragments.stream().filter(f -> f.part() == part).findFirst();
  }

  /** The CHUNKS fragment of one chunk set, if the document has it. */
  public Optional<PartFragment> chunkSet(String subKey) {
    return fragments.stream()
        .filter(f -> f.part() == PipeDocPart.PIPE_DOC_PART_CHUNKS && f.subKey().equals(subKey))
        .findFirst();
  }

  /** Fragment bytes by object key, the shape {@link PipeDocPartCodec#assemble} reads. */
  public Map<String, byte[]> bytesByObjectKey() {
    Map<String, byte[]> out = new LinkedHashMap<>();
    for (PartFragment fragment : fragments) {
      out.put(fragment.objectKey(), fragment.bytes());
    }
    return out;
  }

  /** Total bytes of all fragments. */
  public long totalBytes() {
    long total = 0;
    for (PartFragment fragment : fragments) {
      total += fragment.bytes().length;
    }
    return total;
  }
}
