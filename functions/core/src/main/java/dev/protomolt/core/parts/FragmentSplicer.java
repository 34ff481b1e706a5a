package dev.protomolt.core.parts;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;
import dev.protomolt.core.parts.FragmentRejectedException.Reason;
import dev.protomolt.core.parts.WireFields.Field;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.data.v1.SemanticProcessingResult;
import dev.protomolt.proto.repository.v1.PartManifestEntry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Assembles verified fragments into document bytes by placing their fields where protobuf-java
 * would write them, without decoding the values: {@code doc_id}, then {@code search_metadata} (CORE's
 * fields numbered below 13, the chunk sets' {@code semantic_results} in manifest order, then CORE's
 * remaining fields), then {@code blob_bag}, the {@code parsed_metadata} entries, and CORE's remaining
 * fields (structured data, ownership, unknown fields). Fragments are always protobuf-java's canonical
 * serialization of their part, so the result is the canonical document: the same bytes a
 * field-level merge followed by serialization gives, at the cost of a copy.
 *
 * <p>Each fragment is checked on the way at the levels the split cut: it must be well-formed, carry
 * the manifest's {@code doc_id}, and hold only its own part's fields.
 */
final class FragmentSplicer {
  private static final int DOC_ID = PipeDoc.DOC_ID_FIELD_NUMBER;
  private static final int SEARCH_METADATA = PipeDoc.SEARCH_METADATA_FIELD_NUMBER;
  private static final int BLOB_BAG = PipeDoc.BLOB_BAG_FIELD_NUMBER;
  private static final int PARSED_METADATA = PipeDoc.PARSED_METADATA_FIELD_NUMBER;
  private static final int SEMANTIC_RESULTS = SearchMetadata.SEMANTIC_RESULTS_FIELD_NUMBER;
  private static final int RESULT_ID = SemanticProcessingResult.RESULT_ID_FIELD_NUMBER;

  /** A byte range to copy. */
  private record Slice(byte[] bytes, int from, int to) {
    int length() {
      return to - from;
    }
  }

  private final byte[] docId;
  private byte[] core;
  private List<Field> coreFields = List.of();
  private Field coreSearchMetadata;
  private List<Field> coreSearchMetadataFields = List.of();
  private final List<Slice> blobs = new ArrayList<>();
  private final List<Slice> parsed = new ArrayList<>();
  private final List<Slice> results = new ArrayList<>();

  FragmentSplicer(String docId) {
    this.docId = docId.getBytes(StandardCharsets.UTF_8);
  }

  /** Takes one verified fragment; fails naming the part when it is malformed or carries foreign fields. */
  void add(PartManifestEntry entry, byte[] bytes) {
    List<Field> fields = scan(entry, bytes, 0, bytes.length);
    if (docId.length > 0
        && fields.stream().noneMatch(f -> f.number() == DOC_ID && f.isLengthDelimited())) {
      throw reject(
          entry,
          Reason.WRONG_CONTENT,
          "carries doc_id \"\" but the manifest is for doc_id \""
              + new String(docId, StandardCharsets.UTF_8)
              + "\"");
    }
    switch (entry.getPart()) {
      case PIPE_DOC_PART_CORE -> addCore(entry, bytes, fields);
      case PIPE_DOC_PART_BLOBS -> collect(entry, bytes, fields, BLOB_BAG, "blob_bag", blobs);
      case PIPE_DOC_PART_PARSED ->
          collect(entry, bytes, fields, PARSED_METADATA, "parsed_metadata", parsed);
      case PIPE_DOC_PART_CHUNKS -> addChunks(entry, bytes, fields);
      case PIPE_DOC_PART_UNSPECIFIED, UNRECOGNIZED ->
          throw reject(entry, Reason.BAD_ENTRY, "manifest entry has no part");
    }
  }

  private void addCore(PartManifestEntry entry, byte[] bytes, List<Field> fields) {
    for (Field field : fields) {
      if (isKnownTop(field) && (field.number() == BLOB_BAG || field.number() == PARSED_METADATA)) {
        throw reject(
            entry,
            Reason.WRONG_CONTENT,
            "fragment must carry only its own part, found "
                + (field.number() == BLOB_BAG ? "blob_bag" : "parsed_metadata"));
      }
      if (isKnownTop(field) && field.number() == DOC_ID) {
        checkDocId(entry, bytes, field);
      }
      if (isKnownTop(field) && field.number() == SEARCH_METADATA) {
        if (coreSearchMetadata != null) {
          throw reject(
              entry,
              Reason.UNPARSEABLE,
              "search_metadata occurs twice; not a fragment the codec wrote");
        }
        coreSearchMetadata = field;
        coreSearchMetadataFields = scan(entry, bytes, field.payloadStart(), field.end());
        for (Field inner : coreSearchMetadataFields) {
          if (inner.number() == SEMANTIC_RESULTS
              && WireFields.isKnown(SearchMetadata.getDescriptor(), inner)) {
            throw reject(
                entry,
                Reason.WRONG_CONTENT,
                "fragment must carry only its own part, found search_metadata.semantic_results");
          }
        }
      }
    }
    core = bytes;
    coreFields = fields;
  }

  private void collect(
      PartManifestEntry entry,
      byte[] bytes,
      List<Field> fields,
      int number,
      String name,
      List<Slice> into) {
    int found = 0;
    for (Field field : fields) {
      if (field.number() == number && field.isLengthDelimited()) {
        into.add(new Slice(bytes, field.start(), field.end()));
        found++;
      } else if (field.number() == DOC_ID && field.isLengthDelimited()) {
        checkDocId(entry, bytes, field);
      } else {
        throw reject(
            entry,
            Reason.WRONG_CONTENT,
            "fragment must carry only its own part, found " + describe(field));
      }
    }
    if (found == 0) {
      throw reject(
          entry, Reason.WRONG_CONTENT, "fragment must carry only its own part, found no " + name);
    }
  }

  private void addChunks(PartManifestEntry entry, byte[] bytes, List<Field> fields) {
    ChunkSetKey key;
    try {
      key = ChunkSetKey.parse(entry.getSubKey());
    } catch (IllegalArgumentException e) {
      throw reject(entry, Reason.BAD_ENTRY, e.getMessage());
    }
    byte[] resultId = key.resultId().getBytes(StandardCharsets.UTF_8);
    int count = 0;
    for (Field field : fields) {
      if (field.number() == DOC_ID && field.isLengthDelimited()) {
        checkDocId(entry, bytes, field);
        continue;
      }
      if (field.number() != SEARCH_METADATA || !field.isLengthDelimited()) {
        throw reject(
            entry,
            Reason.WRONG_CONTENT,
            "fragment must carry only its own part, found " + describe(field));
      }
      for (Field result : scan(entry, bytes, field.payloadStart(), field.end())) {
        if (result.number() != SEMANTIC_RESULTS || !result.isLengthDelimited()) {
          throw reject(
              entry,
              Reason.WRONG_CONTENT,
              "fragment must carry only its own part, found search_metadata fields other than"
                  + " semantic_results");
        }
        checkResultId(entry, bytes, result, resultId, key.resultId());
        results.add(new Slice(bytes, result.start(), result.end()));
        count++;
      }
    }
    if (count == 0) {
      throw reject(
          entry,
          Reason.WRONG_CONTENT,
          "fragment must carry only its own part, found no semantic_results");
    }
    if (resultId.length == 0 && count != 1) {
      throw reject(
          entry,
          Reason.WRONG_CONTENT,
          count + " results in a blank-result_id chunk set (must be 1)");
    }
  }

  private void checkResultId(
      PartManifestEntry entry, byte[] bytes, Field result, byte[] expected, String expectedText) {
    // The last result_id occurrence wins in protobuf; a canonical fragment has at most one.
    Field last = null;
    for (Field inner : scan(entry, bytes, result.payloadStart(), result.end())) {
      if (inner.number() == RESULT_ID && inner.isLengthDelimited()) {
        last = inner;
      }
    }
    boolean matches =
        last == null
            ? expected.length == 0
            : Arrays.equals(bytes, last.payloadStart(), last.end(), expected, 0, expected.length);
    if (!matches) {
      String actual =
          last == null
              ? ""
              : new String(
                  bytes,
                  last.payloadStart(),
                  last.end() - last.payloadStart(),
                  StandardCharsets.UTF_8);
      throw reject(
          entry,
          Reason.WRONG_CONTENT,
          "fragment must carry only its own part, found result_id \""
              + actual
              + "\" in the chunk set of result_id \""
              + expectedText
              + "\"");
    }
  }

  private void checkDocId(PartManifestEntry entry, byte[] bytes, Field field) {
    if (!Arrays.equals(bytes, field.payloadStart(), field.end(), docId, 0, docId.length)) {
      throw reject(
          entry,
          Reason.WRONG_CONTENT,
          "carries doc_id \""
              + new String(
                  bytes,
                  field.payloadStart(),
                  field.end() - field.payloadStart(),
                  StandardCharsets.UTF_8)
              + "\" but the manifest is for doc_id \""
              + new String(docId, StandardCharsets.UTF_8)
              + "\"");
    }
  }

  /** The assembled document bytes. */
  byte[] bytes() {
    try {
      return write();
    } catch (IOException e) {
      // Writing to an exactly sized array cannot fail unless a length was miscounted: a codec bug.
      throw new IllegalStateException("assembled document length was miscounted", e);
    }
  }

  private byte[] write() throws IOException {
    // The search_metadata payload: CORE's leading known fields (numbered below 13), the chunk sets'
    // results, then the rest of CORE's search_metadata (fields 14, 15 and unknown fields).
    List<Slice> searchMetadata = new ArrayList<>();
    boolean hasSearchMetadata = coreSearchMetadata != null || !results.isEmpty();
    if (coreSearchMetadata != null) {
      List<Field> inner = coreSearchMetadataFields;
      int split = 0;
      while (split < inner.size()
          && inner.get(split).number() < SEMANTIC_RESULTS
          && WireFields.isKnown(SearchMetadata.getDescriptor(), inner.get(split))) {
        split++;
      }
      int splitAt = split < inner.size() ? inner.get(split).start() : coreSearchMetadata.end();
      searchMetadata.add(new Slice(core, coreSearchMetadata.payloadStart(), splitAt));
      searchMetadata.addAll(results);
      searchMetadata.add(new Slice(core, splitAt, coreSearchMetadata.end()));
    } else {
      searchMetadata.addAll(results);
    }
    int searchMetadataLength = total(searchMetadata);

    List<Field> leading = new ArrayList<>();
    List<Field> trailing = new ArrayList<>();
    boolean inLead = true;
    for (Field field : coreFields) {
      inLead &=
          isKnownTop(field) && (field.number() == DOC_ID || field.number() == SEARCH_METADATA);
      (inLead ? leading : trailing).add(field);
    }
    boolean coreHasDocId = leading.stream().anyMatch(f -> f.number() == DOC_ID);

    int size = 0;
    if (!coreHasDocId && docId.length > 0) {
      size += CodedOutputStream.computeByteArraySize(DOC_ID, docId);
    }
    for (Field field : leading) {
      if (field.number() == DOC_ID) {
        size += field.end() - field.start();
      }
    }
    if (hasSearchMetadata) {
      size +=
          CodedOutputStream.computeTagSize(SEARCH_METADATA)
              + CodedOutputStream.computeUInt32SizeNoTag(searchMetadataLength)
              + searchMetadataLength;
    }
    size += total(blobs) + total(parsed);
    for (Field field : trailing) {
      size += field.end() - field.start();
    }

    byte[] out = new byte[size];
    CodedOutputStream output = CodedOutputStream.newInstance(out);
    if (!coreHasDocId && docId.length > 0) {
      output.writeByteArray(DOC_ID, docId);
    }
    for (Field field : leading) {
      if (field.number() == DOC_ID) {
        output.writeRawBytes(core, field.start(), field.end() - field.start());
      }
    }
    if (hasSearchMetadata) {
      output.writeTag(SEARCH_METADATA, WireFormat.WIRETYPE_LENGTH_DELIMITED);
      output.writeUInt32NoTag(searchMetadataLength);
      write(output, searchMetadata);
    }
    write(output, blobs);
    write(output, parsed);
    for (Field field : trailing) {
      output.writeRawBytes(core, field.start(), field.end() - field.start());
    }
    output.checkNoSpaceLeft();
    return out;
  }

  private static void write(CodedOutputStream output, List<Slice> slices) throws IOException {
    for (Slice slice : slices) {
      output.writeRawBytes(slice.bytes(), slice.from(), slice.length());
    }
  }

  private static int total(List<Slice> slices) {
    int total = 0;
    for (Slice slice : slices) {
      total += slice.length();
    }
    return total;
  }

  private static boolean isKnownTop(Field field) {
    return WireFields.isKnown(PipeDoc.getDescriptor(), field);
  }

  private static String describe(Field field) {
    return switch (field.number()) {
          case DOC_ID -> "doc_id";
          case SEARCH_METADATA -> "search_metadata";
          case BLOB_BAG -> "blob_bag";
          case PARSED_METADATA -> "parsed_metadata";
          case PipeDoc.STRUCTURED_DATA_FIELD_NUMBER -> "structured_data";
          case PipeDoc.OWNERSHIP_FIELD_NUMBER -> "ownership";
          default -> "unknown field " + field.number();
        }
        + (field.isLengthDelimited() || field.number() > PipeDoc.OWNERSHIP_FIELD_NUMBER
            ? ""
            : " (as unknown wire type " + field.wireType() + ")");
  }

  private static List<Field> scan(PartManifestEntry entry, byte[] bytes, int from, int to) {
    try {
      return WireFields.of(bytes, from, to);
    } catch (InvalidProtocolBufferException e) {
      throw reject(entry, Reason.UNPARSEABLE, "bytes are not a valid PipeDoc: " + e.getMessage());
    }
  }

  private static FragmentRejectedException reject(
      PartManifestEntry entry, Reason reason, String rule) {
    return new FragmentRejectedException(
        entry.getPart(), entry.getSubKey(), entry.getObjectKey(), reason, rule, null);
  }
}
