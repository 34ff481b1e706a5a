package dev.protomolt.core.parts;

import dev.protomolt.proto.data.v1.PipeDocPart;

/** The short part names used in messages and logs (CORE, BLOBS, CHUNKS, PARSED). */
final class PartNames {
  private PartNames() {}

  static String shortName(PipeDocPart part) {
    if (part == null) {
      return "UNKNOWN";
    }
    return switch (part) {
      case PIPE_DOC_PART_CORE -> "CORE";
      case PIPE_DOC_PART_BLOBS -> "BLOBS";
      case PIPE_DOC_PART_CHUNKS -> "CHUNKS";
      case PIPE_DOC_PART_PARSED -> "PARSED";
      case PIPE_DOC_PART_UNSPECIFIED, UNRECOGNIZED -> part.name();
    };
  }
}
