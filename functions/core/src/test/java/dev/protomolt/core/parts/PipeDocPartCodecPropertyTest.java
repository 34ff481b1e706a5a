package dev.protomolt.core.parts;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.protomolt.core.parts.DocumentRecipe.BlobShape;
import dev.protomolt.core.parts.DocumentRecipe.Presence;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeDocPart;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.repository.v1.PartManifestEntry;
import dev.protomolt.proto.repository.v1.PartState;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Builders;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * The codec's central property: for any document, split then assemble gives back the same bytes
 * (compared by SHA-256), and every fragment parses alone and carries only its own part.
 */
class PipeDocPartCodecPropertyTest {
  private static final UUID NODE = UUID.fromString("2b1f0e0a-6a0c-3c55-9d43-0c0de0c0de00");
  private static final Set<String> CORE_FIELDS =
      Set.of("doc_id", "search_metadata", "structured_data", "ownership");

  private final PipeDocPartCodec codec = new PipeDocPartCodec();

  @Property(tries = 1200)
  void splitThenAssembleIsByteIdentical(@ForAll("documents") PipeDoc doc) throws Exception {
    byte[] original = doc.toByteArray();
    SplitDocument split = codec.split(ObjectKeys.forNode("acct-1/pipeline/", NODE), original);

    byte[] assembled = codec.assembleBytes(split.manifest(), split.bytesByObjectKey());

    assertThat(Sha256Hex.of(assembled)).isEqualTo(Sha256Hex.of(original));
    assertThat(codec.assemble(split.manifest(), split.bytesByObjectKey())).isEqualTo(doc);
    for (PartFragment fragment : split.fragments()) {
      assertCarriesOnlyItsPart(fragment, doc.getDocId());
    }
    PartMask mask = maskFrom(doc.getDocId().hashCode() ^ original.length, split);
    assertThat(codec.assembleBytes(split.manifest(), split.bytesByObjectKey(), mask))
        .isEqualTo(codec.assemble(split.manifest(), split.bytesByObjectKey(), mask).toByteArray());
    assertManifestMatchesFragments(split, doc);
    Statistics.label("chunk sets")
        .collect(
            bucket(
                split.fragments().stream()
                    .filter(f -> f.part() == PipeDocPart.PIPE_DOC_PART_CHUNKS)
                    .count()));
    Statistics.label("bytes")
        .collect(
            original.length > 1 << 20 ? ">1MiB" : original.length > 32 << 10 ? ">32KiB" : "small");
    Statistics.label("unknown fields").collect(!doc.getUnknownFields().asMap().isEmpty());
    Statistics.label("search_metadata").collect(doc.hasSearchMetadata());
  }

  @Property(tries = 200)
  void bytesInAnotherFieldOrderAssembleToTheCanonicalFormOfTheSameDocument(
      @ForAll("documents") PipeDoc doc, @ForAll long shuffleSeed) throws Exception {
    byte[] shuffled = shuffleTopLevelFields(doc.toByteArray(), new Random(shuffleSeed));
    PipeDoc parsed = PipeDoc.parseFrom(shuffled);

    SplitDocument split = codec.split(ObjectKeys.forNode(NODE), shuffled);
    byte[] assembled = codec.assembleBytes(split.manifest(), split.bytesByObjectKey());

    assertThat(assembled).isEqualTo(parsed.toByteArray());
    assertThat(PipeDoc.parseFrom(assembled)).isEqualTo(parsed);
  }

  @Provide
  Arbitrary<PipeDoc> documents() {
    Arbitrary<String> resultId = Arbitraries.of(RandomDocuments.RESULT_ID_POOL);
    Arbitrary<String> unicode =
        Arbitraries.strings()
            .all()
            .ofMaxLength(30)
            .filter(s -> s.codePoints().noneMatch(cp -> cp >= 0xd800 && cp <= 0xdfff));
    Arbitrary<DocumentRecipe> recipes =
        Builders.withBuilder(() -> new RecipeDraft())
            .use(unicode)
            .in(
                (d, v) -> {
                  d.docId = v;
                  return d;
                })
            .use(Arbitraries.of(Presence.class))
            .in(
                (d, v) -> {
                  d.searchMetadata = v;
                  return d;
                })
            .use(resultId.list().ofMaxSize(14))
            .in(
                (d, v) -> {
                  d.resultIds = v;
                  return d;
                })
            .use(Arbitraries.of(0, 4, 384))
            .in(
                (d, v) -> {
                  d.vectorDims = v;
                  return d;
                })
            .use(Arbitraries.of(BlobShape.class))
            .in(
                (d, v) -> {
                  d.blob = v;
                  return d;
                })
            .use(blobSizes())
            .in(
                (d, v) -> {
                  d.blobBytes = v;
                  return d;
                })
            .use(Arbitraries.integers().between(0, 5))
            .in(
                (d, v) -> {
                  d.parsedEntries = v;
                  return d;
                })
            .use(Arbitraries.of(true, false))
            .in(
                (d, v) -> {
                  d.structured = v;
                  return d;
                })
            .use(Arbitraries.of(true, false))
            .in(
                (d, v) -> {
                  d.ownership = v;
                  return d;
                })
            .use(Arbitraries.integers().between(0, 4))
            .in(
                (d, v) -> {
                  d.unknownFields = v;
                  return d;
                })
            .use(unicode)
            .in(
                (d, v) -> {
                  d.text = v;
                  return d;
                })
            .build(RecipeDraft::recipe);
    return recipes.flatMap(
        recipe -> Arbitraries.longs().map(seed -> RandomDocuments.build(recipe, new Random(seed))));
  }

  /** Mostly small blobs, some tens of KiB, and a few over 1 MiB (explicit ranges: jqwik favours small ints). */
  private static Arbitrary<Integer> blobSizes() {
    return Arbitraries.frequencyOf(
        Tuple.of(60, Arbitraries.just(0)),
        Tuple.of(30, Arbitraries.integers().between(1, 2048)),
        Tuple.of(8, Arbitraries.integers().between(32 << 10, 256 << 10)),
        Tuple.of(3, Arbitraries.integers().between(1 << 20, 1536 << 10)));
  }

  /** Mutable draft the jqwik builder fills, turned into an immutable recipe at the end. */
  private static final class RecipeDraft {
    String docId = "";
    Presence searchMetadata = Presence.ABSENT;
    List<String> resultIds = List.of();
    int vectorDims;
    BlobShape blob = BlobShape.ABSENT;
    int blobBytes;
    int parsedEntries;
    boolean structured;
    boolean ownership;
    int unknownFields;
    String text = "";

    DocumentRecipe recipe() {
      return new DocumentRecipe(
          docId,
          searchMetadata,
          resultIds,
          vectorDims,
          blob,
          blobBytes,
          parsedEntries,
          structured,
          ownership,
          unknownFields,
          text);
    }
  }

  /** Checks a fragment against the part rules using descriptors, independently of the codec's own checks. */
  private static void assertCarriesOnlyItsPart(PartFragment fragment, String docId)
      throws InvalidProtocolBufferException {
    PipeDoc parsed = PipeDoc.parseFrom(fragment.bytes());
    assertThat(parsed.getDocId()).isEqualTo(docId);
    Set<String> fields =
        parsed.getAllFields().keySet().stream()
            .map(FieldDescriptor::getName)
            .collect(Collectors.toSet());
    switch (fragment.part()) {
      case PIPE_DOC_PART_CORE -> {
        assertThat(CORE_FIELDS).containsAll(fields);
        assertThat(parsed.getSearchMetadata().getSemanticResultsCount()).isZero();
      }
      case PIPE_DOC_PART_BLOBS -> {
        assertThat(Set.of("doc_id", "blob_bag")).containsAll(fields);
        assertThat(fields).contains("blob_bag");
        assertThat(parsed.getUnknownFields().asMap()).isEmpty();
      }
      case PIPE_DOC_PART_PARSED -> {
        assertThat(Set.of("doc_id", "parsed_metadata")).containsAll(fields);
        assertThat(fields).contains("parsed_metadata");
        assertThat(parsed.getUnknownFields().asMap()).isEmpty();
      }
      case PIPE_DOC_PART_CHUNKS -> {
        assertThat(Set.of("doc_id", "search_metadata")).containsAll(fields);
        SearchMetadata sm = parsed.getSearchMetadata();
        assertThat(sm.getAllFields().keySet())
            .extracting(FieldDescriptor::getName)
            .containsExactly("semantic_results");
        assertThat(sm.getUnknownFields().asMap()).isEmpty();
        assertThat(parsed.getUnknownFields().asMap()).isEmpty();
        ChunkSetKey key = ChunkSetKey.parse(fragment.subKey());
        assertThat(sm.getSemanticResultsList())
            .allSatisfy(r -> assertThat(r.getResultId()).isEqualTo(key.resultId()));
      }
      default -> throw new AssertionError("unexpected part " + fragment.part());
    }
  }

  private static void assertManifestMatchesFragments(SplitDocument split, PipeDoc doc) {
    List<PartManifestEntry> present =
        split.manifest().getEntriesList().stream()
            .filter(e -> e.getState() == PartState.PART_STATE_PRESENT)
            .toList();
    assertThat(present).hasSameSizeAs(split.fragments());
    for (int i = 0; i < present.size(); i++) {
      PartFragment fragment = split.fragments().get(i);
      assertThat(present.get(i).getSha256()).isEqualTo(Sha256Hex.of(fragment.bytes()));
      assertThat(present.get(i).getSizeBytes()).isEqualTo(fragment.bytes().length);
      assertThat(present.get(i).getObjectKey())
          .isEqualTo(fragment.objectKey())
          .matches("[A-Za-z0-9._/-]+");
    }
    boolean hasBlobs = doc.hasBlobBag();
    assertThat(split.fragment(PipeDocPart.PIPE_DOC_PART_BLOBS).isPresent()).isEqualTo(hasBlobs);
    assertThat(split.fragment(PipeDocPart.PIPE_DOC_PART_PARSED).isPresent())
        .isEqualTo(doc.getParsedMetadataCount() > 0);
    assertThat(split.manifest().getChecksum()).isEqualTo(ManifestChecksum.of(split.manifest()));
  }

  /** A varied mask derived from the document, so masked assembly is exercised on every shape. */
  private static PartMask maskFrom(int bits, SplitDocument split) {
    Set<PipeDocPart> parts = new HashSet<>();
    PipeDocPart[] all = {
      PipeDocPart.PIPE_DOC_PART_CORE,
      PipeDocPart.PIPE_DOC_PART_BLOBS,
      PipeDocPart.PIPE_DOC_PART_CHUNKS,
      PipeDocPart.PIPE_DOC_PART_PARSED
    };
    for (int i = 0; i < all.length; i++) {
      if ((bits >>> i & 1) == 1) {
        parts.add(all[i]);
      }
    }
    Set<String> chunkSets = new HashSet<>();
    if (parts.contains(PipeDocPart.PIPE_DOC_PART_CHUNKS) && (bits >>> 4 & 1) == 1) {
      split.fragments().stream()
          .filter(f -> f.part() == PipeDocPart.PIPE_DOC_PART_CHUNKS)
          .filter(f -> (f.ordinal() & 1) == 0)
          .forEach(f -> chunkSets.add(f.subKey()));
    }
    return new PartMask(parts, chunkSets);
  }

  private static String bucket(long count) {
    return count == 0 ? "0" : count < 4 ? "1-3" : "4+";
  }

  /** Re-emits the top-level fields of a message in a random order: a valid, non-canonical PipeDoc. */
  static byte[] shuffleTopLevelFields(byte[] bytes, Random random) throws IOException {
    CodedInputStream input = CodedInputStream.newInstance(bytes);
    List<byte[]> fields = new ArrayList<>();
    while (true) {
      int start = input.getTotalBytesRead();
      int tag = input.readTag();
      if (tag == 0) {
        break;
      }
      input.skipField(tag);
      int end = input.getTotalBytesRead();
      fields.add(Arrays.copyOfRange(bytes, start, end));
    }
    // Keep repeated map entries in their relative order: their order is the map's order.
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      order.add(i);
    }
    Collections.shuffle(order, random);
    List<Integer> mapSlots =
        order.stream().filter(i -> isMapEntry(fields.get(i))).sorted().toList();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int nextMap = 0;
    for (int i : order) {
      byte[] field =
          isMapEntry(fields.get(i)) ? fields.get(mapSlots.get(nextMap++)) : fields.get(i);
      out.write(field);
    }
    return out.toByteArray();
  }

  private static boolean isMapEntry(byte[] field) {
    return (field[0] & 0xff) == ((4 << 3) | 2);
  }
}
