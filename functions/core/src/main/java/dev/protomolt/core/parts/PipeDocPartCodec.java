package dev.protomolt.core.parts;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.protomolt.core.parts.FragmentRejectedException.Reason;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeDocPart;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.data.v1.SemanticProcessingResult;
import dev.protomolt.proto.repository.v1.PartManifestEntry;
import dev.protomolt.proto.repository.v1.PartState;
import dev.protomolt.proto.repository.v1.PipeDocManifest;
import java.io.IOException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Splits a PipeDoc into its four parts and assembles it back, pure and without I/O.
 *
 * <p>CORE holds {@code doc_id}, {@code search_metadata} without {@code semantic_results},
 * {@code structured_data}, {@code ownership} and every unknown field; BLOBS holds {@code blob_bag};
 * PARSED holds {@code parsed_metadata}; CHUNKS holds {@code semantic_results}, one object per chunk
 * set (see {@link ChunkSets}). Every fragment is itself a valid PipeDoc carrying only its part plus
 * {@code doc_id}. CORE is always written, even when it holds nothing but {@code doc_id}, so a stored
 * state always has an object that names its document; the other parts write no object when empty.
 *
 * <p>Assembly is a field-level merge of the fragments in manifest order: {@link #assemble} parses
 * and merges them into a PipeDoc; {@link #assembleBytes} places their fields where that merge would
 * serialize them without decoding the values ({@link FragmentSplicer}). Protobuf-java writes known
 * fields in field-number order, unknown fields after them, and map entries in the order they were
 * parsed, so the assembled bytes equal the original bytes for every document in canonical form,
 * which is every byte string protobuf-java itself writes. See
 * {@code docs/decisions/0101-codec-byte-exactness-contract.md} for documents that arrive in another
 * byte order.
 *
 * <p>Assembly never returns a silently wrong document: each PRESENT entry's bytes must match its
 * recorded size and SHA-256, parse, and carry only its own part and the manifest's {@code doc_id};
 * otherwise a {@link FragmentRejectedException} names the part.
 */
public final class PipeDocPartCodec {
  /** Recorded in every manifest; bump when the split or key layout changes the bytes written. */
  public static final int CODEC_VERSION = 1;

  private static final SearchMetadata EMPTY_SEARCH_METADATA = SearchMetadata.getDefaultInstance();

  // ---------------------------------------------------------------------------------------- split

  /** Splits a document stored under {@code <nodeId>/} at the bucket root. */
  public SplitDocument split(UUID nodeId, PipeDoc doc) {
    return split(ObjectKeys.forNode(nodeId), doc);
  }

  /** Splits a document whose objects are named by {@code keys}. */
  public SplitDocument split(ObjectKeys keys, PipeDoc doc) {
    String docId = doc.getDocId();
    List<PartFragment> fragments = new ArrayList<>();
    List<PartManifestEntry> entries = new ArrayList<>();
    MessageDigest digest = Sha256Hex.newDigest();

    PipeDoc.Builder core = doc.toBuilder().clearBlobBag().clearParsedMetadata();
    List<SemanticProcessingResult> results = List.of();
    if (doc.hasSearchMetadata()) {
      SearchMetadata searchMetadata = doc.getSearchMetadata();
      results = searchMetadata.getSemanticResultsList();
      if (!results.isEmpty()) {
        SearchMetadata rest = searchMetadata.toBuilder().clearSemanticResults().build();
        // When only the chunks made search_metadata present, the CHUNKS fragments bring the
        // presence back on assembly; CORE keeps nothing that is not its own.
        if (rest.getSerializedSize() == 0) {
          core.clearSearchMetadata();
        } else {
          core.setSearchMetadata(rest);
        }
      }
    }
    add(
        fragments,
        entries,
        digest,
        PipeDocPart.PIPE_DOC_PART_CORE,
        "",
        0,
        keys.core(),
        core.build());

    if (doc.hasBlobBag()) {
      PipeDoc blobs = PipeDoc.newBuilder().setDocId(docId).setBlobBag(doc.getBlobBag()).build();
      add(fragments, entries, digest, PipeDocPart.PIPE_DOC_PART_BLOBS, "", 0, keys.blobs(), blobs);
    } else {
      entries.add(emptyEntry(PipeDocPart.PIPE_DOC_PART_BLOBS));
    }

    if (doc.getParsedMetadataCount() > 0) {
      PipeDoc parsed =
          PipeDoc.newBuilder()
              .setDocId(docId)
              .putAllParsedMetadata(doc.getParsedMetadataMap())
              .build();
      add(
          fragments,
          entries,
          digest,
          PipeDocPart.PIPE_DOC_PART_PARSED,
          "",
          0,
          keys.parsed(),
          parsed);
    } else {
      entries.add(emptyEntry(PipeDocPart.PIPE_DOC_PART_PARSED));
    }

    if (results.isEmpty()) {
      entries.add(emptyEntry(PipeDocPart.PIPE_DOC_PART_CHUNKS));
    } else {
      Set<String> chunkKeys = new HashSet<>();
      for (ChunkSet set : ChunkSets.of(results)) {
        String objectKey = keys.chunkSet(set.subKey());
        if (!chunkKeys.add(objectKey)) {
          // 80 bits of SHA-256 make this practically unreachable; refusing beats overwriting.
          throw new IllegalStateException(
              "two chunk sets of document \""
                  + docId
                  + "\" map to object key "
                  + objectKey
                  + "; refusing to overwrite one with the other");
        }
        PipeDoc chunks =
            PipeDoc.newBuilder()
                .setDocId(docId)
                .setSearchMetadata(SearchMetadata.newBuilder().addAllSemanticResults(set.results()))
                .build();
        add(
            fragments,
            entries,
            digest,
            PipeDocPart.PIPE_DOC_PART_CHUNKS,
            set.subKey(),
            set.ordinal(),
            objectKey,
            chunks);
      }
    }

    PipeDocManifest manifest =
        PipeDocManifest.newBuilder()
            .setNodeId(keys.nodeId().toString())
            .setDocId(docId)
            .addAllEntries(entries)
            .setChecksum(ManifestChecksum.of(entries))
            .setCodecVersion(CODEC_VERSION)
            .build();
    return new SplitDocument(manifest, fragments);
  }

  /**
   * Splits serialized document bytes. The bytes are parsed once without copying large byte fields;
   * the fragments are fresh arrays, so the input may be reused afterwards.
   *
   * @throws IllegalArgumentException when the bytes are not a valid PipeDoc
   */
  public SplitDocument split(ObjectKeys keys, byte[] documentBytes) {
    PipeDoc doc;
    try {
      doc = parseAliasing(documentBytes);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(
          "document bytes are not a valid PipeDoc: " + e.getMessage(), e);
    }
    return split(keys, doc);
  }

  /**
   * True when the bytes are in the canonical form protobuf-java writes, i.e. when
   * {@code assembleBytes(split(bytes))} will reproduce them exactly. Bytes in another order still
   * split and assemble to the same document, in canonical form.
   */
  public static boolean isCanonical(byte[] documentBytes) {
    try {
      return Arrays.equals(parseAliasing(documentBytes).toByteArray(), documentBytes);
    } catch (InvalidProtocolBufferException e) {
      return false;
    }
  }

  private static void add(
      List<PartFragment> fragments,
      List<PartManifestEntry> entries,
      MessageDigest digest,
      PipeDocPart part,
      String subKey,
      int ordinal,
      String objectKey,
      PipeDoc fragment) {
    byte[] bytes = fragment.toByteArray();
    String sha256 = Sha256Hex.hex(digest.digest(bytes));
    fragments.add(new PartFragment(part, subKey, ordinal, objectKey, bytes, sha256));
    entries.add(
        PartManifestEntry.newBuilder()
            .setPart(part)
            .setState(PartState.PART_STATE_PRESENT)
            .setSizeBytes(bytes.length)
            .setSha256(sha256)
            .setObjectKey(objectKey)
            .setSubKey(subKey)
            .setOrdinal(ordinal)
            .build());
  }

  private static PartManifestEntry emptyEntry(PipeDocPart part) {
    return PartManifestEntry.newBuilder()
        .setPart(part)
        .setState(PartState.PART_STATE_EMPTY)
        .build();
  }

  /**
   * The parts and chunk sets a save of {@code doc} must write over the stored state described by
   * {@code stored}, given the mask the writer read it with. Splits the document under
   * {@code keys} (the new state's keys); the split is returned with the changes so the fragments
   * of the written parts can be stored.
   */
  public ObservedSave observe(
      PipeDocManifest stored, PipeDoc doc, ObjectKeys keys, PartMask observed) {
    SplitDocument split = split(keys, doc);
    return new ObservedSave(split, PartDiff.between(stored, split.manifest(), observed));
  }

  /** A split document together with what changed against the stored state. */
  public record ObservedSave(SplitDocument split, PartChanges changes) {}

  // ------------------------------------------------------------------------------------- assemble

  /** Assembles every part of the document. */
  public PipeDoc assemble(PipeDocManifest manifest, Map<String, byte[]> bytesByObjectKey) {
    return assemble(manifest, bytesByObjectKey, PartMask.ALL);
  }

  /**
   * Assembles the parts the mask includes. Only the included PRESENT entries need bytes; EMPTY
   * entries contribute nothing and DELETED entries are skipped (their bytes are gone by design).
   * Each fragment is parsed on its own and merged field by field, so a fragment that is malformed
   * at any depth is refused naming its part.
   */
  public PipeDoc assemble(
      PipeDocManifest manifest, Map<String, byte[]> bytesByObjectKey, PartMask mask) {
    PipeDoc.Builder builder = PipeDoc.newBuilder().setDocId(manifest.getDocId());
    for (VerifiedFragment verified : verify(manifest, bytesByObjectKey, mask)) {
      PipeDoc fragment;
      try {
        fragment = PipeDoc.parseFrom(verified.bytes());
      } catch (InvalidProtocolBufferException e) {
        throw reject(
            verified.entry(),
            Reason.UNPARSEABLE,
            "bytes are not a valid PipeDoc: " + e.getMessage(),
            e);
      }
      checkContent(verified.entry(), fragment, manifest.getDocId());
      builder.mergeFrom(fragment);
    }
    return builder.build();
  }

  /** Assembles every part straight to bytes: the original bytes for a canonical document. */
  public byte[] assembleBytes(PipeDocManifest manifest, Map<String, byte[]> bytesByObjectKey) {
    return assembleBytes(manifest, bytesByObjectKey, PartMask.ALL);
  }

  /**
   * Assembles the masked parts straight to bytes. The fragments are verified (size, SHA-256, the
   * levels the split cut, doc_id, part membership) and spliced without decoding their values (see
   * {@link FragmentSplicer}), giving the same bytes as {@link #assemble} followed by serialization.
   */
  public byte[] assembleBytes(
      PipeDocManifest manifest, Map<String, byte[]> bytesByObjectKey, PartMask mask) {
    FragmentSplicer splicer = new FragmentSplicer(manifest.getDocId());
    for (VerifiedFragment verified : verify(manifest, bytesByObjectKey, mask)) {
      splicer.add(verified.entry(), verified.bytes());
    }
    return splicer.bytes();
  }

  /** A fragment whose size and SHA-256 match its manifest entry. */
  private record VerifiedFragment(PartManifestEntry entry, byte[] bytes) {}

  private static List<VerifiedFragment> verify(
      PipeDocManifest manifest, Map<String, byte[]> bytesByObjectKey, PartMask mask) {
    List<VerifiedFragment> verified = new ArrayList<>();
    MessageDigest digest = Sha256Hex.newDigest();
    int lastOrdinal = -1;
    for (PartManifestEntry entry : manifest.getEntriesList()) {
      PipeDocPart part = entry.getPart();
      if (part == PipeDocPart.PIPE_DOC_PART_UNSPECIFIED || part == PipeDocPart.UNRECOGNIZED) {
        throw reject(entry, Reason.BAD_ENTRY, "manifest entry has no part", null);
      }
      boolean chunks = part == PipeDocPart.PIPE_DOC_PART_CHUNKS;
      boolean included = chunks ? mask.includesChunkSet(entry.getSubKey()) : mask.includes(part);
      if (!included) {
        continue;
      }
      switch (entry.getState()) {
        case PART_STATE_EMPTY, PART_STATE_DELETED -> {
          continue;
        }
        case PART_STATE_PRESENT -> {
          // verified below
        }
        case PART_STATE_UNSPECIFIED, UNRECOGNIZED ->
            throw reject(entry, Reason.BAD_ENTRY, "manifest entry has no state", null);
      }
      if (chunks) {
        if (entry.getOrdinal() <= lastOrdinal) {
          throw reject(
              entry,
              Reason.BAD_ENTRY,
              "chunk set ordinal "
                  + entry.getOrdinal()
                  + " is not after the previous chunk set's "
                  + lastOrdinal
                  + " in manifest order",
              null);
        }
        lastOrdinal = entry.getOrdinal();
      }
      if (entry.getObjectKey().isEmpty()) {
        throw reject(entry, Reason.BAD_ENTRY, "PRESENT entry has a blank object_key", null);
      }
      byte[] bytes = bytesByObjectKey.get(entry.getObjectKey());
      if (bytes == null) {
        throw reject(entry, Reason.MISSING, "no bytes were supplied for this PRESENT entry", null);
      }
      if (bytes.length != entry.getSizeBytes()) {
        throw reject(
            entry,
            Reason.DIGEST_MISMATCH,
            "size is "
                + bytes.length
                + " bytes but the manifest records "
                + entry.getSizeBytes()
                + " (truncated or corrupt object)",
            null);
      }
      String sha256 = Sha256Hex.hex(digest.digest(bytes));
      if (!sha256.equals(entry.getSha256())) {
        throw reject(
            entry,
            Reason.DIGEST_MISMATCH,
            "SHA-256 is "
                + sha256
                + " but the manifest records "
                + entry.getSha256()
                + " (corrupt object)",
            null);
      }
      verified.add(new VerifiedFragment(entry, bytes));
    }
    return verified;
  }

  private static void checkContent(PartManifestEntry entry, PipeDoc fragment, String docId) {
    if (!fragment.getDocId().equals(docId)) {
      throw reject(
          entry,
          Reason.WRONG_CONTENT,
          "carries doc_id \""
              + fragment.getDocId()
              + "\" but the manifest is for doc_id \""
              + docId
              + "\"",
          null);
    }
    String foreign =
        switch (entry.getPart()) {
          case PIPE_DOC_PART_CORE ->
              fragment.hasBlobBag()
                  ? "blob_bag"
                  : fragment.getParsedMetadataCount() > 0
                      ? "parsed_metadata"
                      : fragment.getSearchMetadata().getSemanticResultsCount() > 0
                          ? "search_metadata.semantic_results"
                          : null;
          case PIPE_DOC_PART_BLOBS ->
              !fragment.hasBlobBag() ? "no blob_bag" : otherThan(fragment, false, true, false);
          case PIPE_DOC_PART_PARSED ->
              fragment.getParsedMetadataCount() == 0
                  ? "no parsed_metadata"
                  : otherThan(fragment, false, false, true);
          case PIPE_DOC_PART_CHUNKS -> chunkContent(entry, fragment);
          case PIPE_DOC_PART_UNSPECIFIED, UNRECOGNIZED -> "an unspecified part";
        };
    if (foreign != null) {
      throw reject(
          entry,
          Reason.WRONG_CONTENT,
          "fragment must carry only its own part, found " + foreign,
          null);
    }
  }

  /** Names a field the fragment carries beyond doc_id and the allowed ones, or null when clean. */
  private static String otherThan(
      PipeDoc fragment, boolean searchMetadata, boolean blobBag, boolean parsed) {
    if (!searchMetadata && fragment.hasSearchMetadata()) {
      return "search_metadata";
    }
    if (!blobBag && fragment.hasBlobBag()) {
      return "blob_bag";
    }
    if (!parsed && fragment.getParsedMetadataCount() > 0) {
      return "parsed_metadata";
    }
    if (fragment.hasStructuredData()) {
      return "structured_data";
    }
    if (fragment.hasOwnership()) {
      return "ownership";
    }
    if (!fragment.getUnknownFields().asMap().isEmpty()) {
      return "unknown fields " + fragment.getUnknownFields().asMap().keySet();
    }
    return null;
  }

  private static String chunkContent(PartManifestEntry entry, PipeDoc fragment) {
    String other = otherThan(fragment, true, false, false);
    if (other != null) {
      return other;
    }
    SearchMetadata searchMetadata = fragment.getSearchMetadata();
    if (searchMetadata.getSemanticResultsCount() == 0) {
      return "no search_metadata.semantic_results";
    }
    if (!searchMetadata.toBuilder().clearSemanticResults().build().equals(EMPTY_SEARCH_METADATA)) {
      return "search_metadata fields other than semantic_results";
    }
    ChunkSetKey key;
    try {
      key = ChunkSetKey.parse(entry.getSubKey());
    } catch (IllegalArgumentException e) {
      throw reject(entry, Reason.BAD_ENTRY, e.getMessage(), e);
    }
    if (key.resultId().isEmpty() && searchMetadata.getSemanticResultsCount() != 1) {
      return searchMetadata.getSemanticResultsCount()
          + " results in a blank-result_id chunk set (must be 1)";
    }
    for (SemanticProcessingResult result : searchMetadata.getSemanticResultsList()) {
      if (!result.getResultId().equals(key.resultId())) {
        return "result_id \""
            + result.getResultId()
            + "\" in the chunk set of result_id \""
            + key.resultId()
            + "\"";
      }
    }
    return null;
  }

  private static FragmentRejectedException reject(
      PartManifestEntry entry, Reason reason, String rule, Throwable cause) {
    return new FragmentRejectedException(
        entry.getPart(), entry.getSubKey(), entry.getObjectKey(), reason, rule, cause);
  }

  private static PipeDoc parseAliasing(byte[] bytes) throws InvalidProtocolBufferException {
    CodedInputStream input = CodedInputStream.newInstance(bytes);
    input.enableAliasing(true);
    try {
      PipeDoc doc = PipeDoc.parseFrom(input);
      input.checkLastTagWas(0);
      return doc;
    } catch (InvalidProtocolBufferException e) {
      throw e;
    } catch (IOException e) {
      // A CodedInputStream over an array reports only InvalidProtocolBufferException.
      throw new InvalidProtocolBufferException(e);
    }
  }
}
