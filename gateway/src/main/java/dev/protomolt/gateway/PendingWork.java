package dev.protomolt.gateway;

import java.util.Objects;

/**
 * One record popped from a {@link WorkSource}, still unparsed: a poison record must reach the
 * screen as bytes, not as an exception inside the source.
 *
 * @param moduleId the module service whose topic the record came from
 * @param key the record key (the work unit id, by the dispatch contract); may be empty
 * @param payload the serialized {@code WorkDispatch}
 * @param position where the source keeps it, so it can re-buffer or settle exactly this record
 */
public record PendingWork(String moduleId, String key, byte[] payload, Object position) {
  public PendingWork {
    Objects.requireNonNull(moduleId, "moduleId");
    key = key == null ? "" : key;
    payload = payload == null ? new byte[0] : payload;
    Objects.requireNonNull(position, "position");
  }
}
