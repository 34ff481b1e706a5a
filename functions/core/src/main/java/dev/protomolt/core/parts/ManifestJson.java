package dev.protomolt.core.parts;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.protomolt.proto.repository.v1.PipeDocManifest;

/**
 * The manifest's JSON form, as stored in the ledger's JSONB column. Field names are the proto names
 * ({@code object_key}, {@code sub_key}) so SQL over the column reads like the contract. Reading
 * ignores fields it does not know, so a manifest written by a newer codec still loads in an older
 * reader.
 */
public final class ManifestJson {
  private static final JsonFormat.Printer PRINTER =
      JsonFormat.printer().preservingProtoFieldNames().omittingInsignificantWhitespace();
  private static final JsonFormat.Parser PARSER = JsonFormat.parser().ignoringUnknownFields();

  private ManifestJson() {}

  public static String toJson(PipeDocManifest manifest) {
    try {
      return PRINTER.print(manifest);
    } catch (InvalidProtocolBufferException e) {
      // Only Any fields with unknown types can fail to print, and the manifest has none.
      throw new IllegalStateException("manifest cannot be printed as JSON", e);
    }
  }

  /** Reads a manifest; fails naming the problem when the text is not a manifest's JSON. */
  public static PipeDocManifest fromJson(String json) {
    if (json == null || json.isBlank()) {
      throw new IllegalArgumentException("manifest JSON must not be blank");
    }
    PipeDocManifest.Builder builder = PipeDocManifest.newBuilder();
    try {
      PARSER.merge(json, builder);
    } catch (InvalidProtocolBufferException | RuntimeException e) {
      throw new IllegalArgumentException(
          "manifest JSON is not a valid PipeDocManifest: " + e.getMessage(), e);
    }
    return builder.build();
  }
}
