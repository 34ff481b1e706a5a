package dev.protomolt.core.cel;

import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeStream;
import java.util.Map;
import java.util.Objects;

/**
 * The variables one evaluation sees. The document is passed separately from the stream because a
 * claim-check stream carries only a reference; {@code document} is always the hydrated body.
 */
public record CelInput(PipeDoc document, PipeStream stream) {

  public CelInput {
    Objects.requireNonNull(document, "document");
    Objects.requireNonNull(stream, "stream");
  }

  /** The activation map handed to a compiled program. */
  public Map<String, Object> activation() {
    return Map.of(
        PipelineCelEnvironment.DOCUMENT,
        document,
        PipelineCelEnvironment.METADATA,
        stream.getMetadata(),
        PipelineCelEnvironment.CONTEXT_PARAMS,
        stream.getMetadata().getContextParamsMap(),
        PipelineCelEnvironment.STREAM,
        stream);
  }
}
