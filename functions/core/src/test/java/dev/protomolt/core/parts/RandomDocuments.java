package dev.protomolt.core.parts;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.ListValue;
import com.google.protobuf.NullValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Timestamp;
import com.google.protobuf.UnknownFieldSet;
import com.google.protobuf.Value;
import dev.protomolt.core.parts.DocumentRecipe.BlobShape;
import dev.protomolt.core.parts.DocumentRecipe.Presence;
import dev.protomolt.proto.data.v1.Blob;
import dev.protomolt.proto.data.v1.BlobBag;
import dev.protomolt.proto.data.v1.Blobs;
import dev.protomolt.proto.data.v1.ChunkEmbedding;
import dev.protomolt.proto.data.v1.FileStorageReference;
import dev.protomolt.proto.data.v1.OwnershipContext;
import dev.protomolt.proto.data.v1.ParsedMetadata;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.data.v1.SemanticChunk;
import dev.protomolt.proto.data.v1.SemanticProcessingResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Builds documents from a {@link DocumentRecipe} and a seeded {@link Random}: the recipe fixes the
 * shape, the random source fills the values. The same recipe and seed always give the same bytes.
 */
public final class RandomDocuments {
  /** Result ids that make runs repeat, interleave, need escaping, and go blank. */
  static final List<String> RESULT_ID_POOL =
      List.of("sentences-v1", "paragraphs", "", "a#2", "100%", "日本語-チャンク", "emb/minilm:384", "a");

  private RandomDocuments() {}

  /** A recipe drawn from the random source alone (the fixture corpus uses this). */
  public static DocumentRecipe recipe(Random random) {
    int results = random.nextInt(4) == 0 ? 0 : random.nextInt(12);
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < results; i++) {
      // Favour repeating the previous id so runs longer than one are common.
      ids.add(
          !ids.isEmpty() && random.nextBoolean()
              ? ids.getLast()
              : RESULT_ID_POOL.get(random.nextInt(RESULT_ID_POOL.size())));
    }
    int blobBytes =
        switch (random.nextInt(10)) {
          case 0 -> 0;
          case 1 -> 16 * 1024 + random.nextInt(16 * 1024);
          default -> random.nextInt(512);
        };
    return new DocumentRecipe(
        text(random, random.nextInt(40)),
        Presence.values()[random.nextInt(3)],
        ids,
        new int[] {0, 4, 16}[random.nextInt(3)],
        BlobShape.values()[random.nextInt(BlobShape.values().length)],
        blobBytes,
        random.nextInt(4),
        random.nextBoolean(),
        random.nextBoolean(),
        random.nextInt(3),
        text(random, random.nextInt(60)));
  }

  public static PipeDoc build(DocumentRecipe recipe, Random random) {
    PipeDoc.Builder doc = PipeDoc.newBuilder().setDocId(recipe.docId());
    SearchMetadata.Builder sm = SearchMetadata.newBuilder();
    if (recipe.searchMetadata() == Presence.FILLED) {
      sm.setTitle(recipe.text())
          .setBody(recipe.text() + " " + text(random, 80))
          .addKeywords(text(random, 5))
          .addKeywords(recipe.text())
          .setLanguage("en")
          .setContentLength(random.nextInt(100_000))
          .setCreationDate(timestamp(random))
          .setProcessedDate(timestamp(random))
          .setCustomFields(struct(random, 3))
          .setAuthor(text(random, 8));
      sm.setUnknownFields(unknown(random, recipe.unknownFields()));
    }
    for (String resultId : recipe.resultIds()) {
      sm.addSemanticResults(result(random, resultId, recipe));
    }
    if (recipe.searchMetadata() != Presence.ABSENT || !recipe.resultIds().isEmpty()) {
      doc.setSearchMetadata(sm);
    }
    switch (recipe.blob()) {
      case ABSENT -> {}
      case EMPTY_BAG -> doc.setBlobBag(BlobBag.getDefaultInstance());
      case INLINE -> doc.setBlobBag(BlobBag.newBuilder().setBlob(blob(random, recipe)));
      case SEVERAL ->
          doc.setBlobBag(
              BlobBag.newBuilder()
                  .setBlobs(
                      Blobs.newBuilder()
                          .addBlob(blob(random, recipe))
                          .addBlob(blob(random, recipe)))
                  .setUnknownFields(unknown(random, recipe.unknownFields())));
      case STORAGE_REF ->
          doc.setBlobBag(
              BlobBag.newBuilder()
                  .setBlob(
                      Blob.newBuilder()
                          .setBlobId(text(random, 6))
                          .setStorageRef(
                              FileStorageReference.newBuilder()
                                  .setDriveName("acct-1:intake")
                                  .setObjectKey("in/" + random.nextInt(1000) + ".bin")
                                  .setSizeBytes(recipe.blobBytes()))));
    }
    for (int i = 0; i < recipe.parsedEntries(); i++) {
      // Keys in random (not sorted) order: the parsed order must survive the round trip.
      String parser = text(random, 1 + random.nextInt(8)) + i;
      doc.putParsedMetadata(
          parser,
          ParsedMetadata.newBuilder()
              .setParserName(parser)
              .setParserVersion(Integer.toString(random.nextInt(9)))
              .setData(struct(random, 1 + random.nextInt(4)))
              .setParsedAt(timestamp(random))
              .build());
    }
    if (recipe.structured()) {
      doc.setStructuredData(Any.pack(struct(random, 2)));
    }
    if (recipe.ownership()) {
      doc.setOwnership(
          OwnershipContext.newBuilder()
              .setAccountId("acct-" + random.nextInt(5))
              .addGroupIds(text(random, 4))
              .setRightToBeForgotten(random.nextBoolean()));
    }
    doc.setUnknownFields(unknown(random, recipe.unknownFields()));
    return doc.build();
  }

  private static SemanticProcessingResult result(
      Random random, String resultId, DocumentRecipe recipe) {
    SemanticProcessingResult.Builder result =
        SemanticProcessingResult.newBuilder()
            .setResultId(resultId)
            .setSourceFieldName("body")
            .setChunkConfigId("cfg-" + random.nextInt(3))
            .setEmbeddingConfigId(recipe.vectorDims() == 0 ? "" : "emb-" + recipe.vectorDims());
    int chunks = random.nextInt(4);
    for (int c = 0; c < chunks; c++) {
      ChunkEmbedding.Builder embedding =
          ChunkEmbedding.newBuilder()
              .setTextContent(text(random, 30))
              .setChunkId(resultId + ":" + c)
              .setOriginalCharStartOffset(c * 30)
              .setOriginalCharEndOffset(c * 30 + 29);
      for (int d = 0; d < recipe.vectorDims(); d++) {
        embedding.addVector((float) random.nextGaussian());
      }
      result.addChunks(
          SemanticChunk.newBuilder()
              .setChunkId(resultId + ":" + c)
              .setChunkNumber(c)
              .setEmbeddingInfo(embedding)
              .putMetadata(text(random, 3), value(random, 0)));
    }
    if (random.nextBoolean()) {
      result.putMetadata("z", value(random, 1)).putMetadata("a", value(random, 1));
    }
    if (random.nextInt(3) == 0) {
      result.setUnknownFields(unknown(random, recipe.unknownFields()));
    }
    return result.build();
  }

  private static Blob blob(Random random, DocumentRecipe recipe) {
    byte[] data = new byte[recipe.blobBytes()];
    random.nextBytes(data);
    return Blob.newBuilder()
        .setBlobId(text(random, 6))
        .setData(ByteString.copyFrom(data))
        .setMimeType("application/octet-stream")
        .setFilename(text(random, 10) + ".bin")
        .setSizeBytes(data.length)
        .putMetadata("source", text(random, 5))
        .putMetadata("a", "1")
        .setUnknownFields(unknown(random, recipe.unknownFields()))
        .build();
  }

  private static Struct struct(Random random, int fields) {
    Struct.Builder struct = Struct.newBuilder();
    for (int i = 0; i < fields; i++) {
      struct.putFields(text(random, 1 + random.nextInt(6)) + i, value(random, 2));
    }
    return struct.build();
  }

  private static Value value(Random random, int depth) {
    int kind = random.nextInt(depth > 0 ? 6 : 4);
    return switch (kind) {
      case 0 -> Value.newBuilder().setNullValue(NullValue.NULL_VALUE).build();
      case 1 -> Value.newBuilder().setNumberValue(random.nextDouble() * 1e6).build();
      case 2 -> Value.newBuilder().setStringValue(text(random, 12)).build();
      case 3 -> Value.newBuilder().setBoolValue(random.nextBoolean()).build();
      case 4 -> Value.newBuilder().setStructValue(struct(random, 2)).build();
      default ->
          Value.newBuilder()
              .setListValue(
                  ListValue.newBuilder()
                      .addValues(value(random, depth - 1))
                      .addValues(value(random, depth - 1)))
              .build();
    };
  }

  private static Timestamp timestamp(Random random) {
    return Timestamp.newBuilder()
        .setSeconds(1_600_000_000L + random.nextInt(200_000_000))
        .setNanos(random.nextInt(1_000_000_000))
        .build();
  }

  /**
   * Unknown fields as a newer writer would leave them: numbers beyond the schema, plus a known
   * number (2) sent with the wrong wire type, which protobuf also keeps as unknown.
   */
  static UnknownFieldSet unknown(Random random, int count) {
    UnknownFieldSet.Builder set = UnknownFieldSet.newBuilder();
    for (int i = 0; i < count; i++) {
      int number =
          switch (random.nextInt(4)) {
            case 0 -> 2;
            case 1 -> 16 + random.nextInt(100);
            case 2 -> 1000 + random.nextInt(10_000);
            default -> 536_870_911;
          };
      UnknownFieldSet.Field.Builder field = UnknownFieldSet.Field.newBuilder();
      switch (random.nextInt(4)) {
        case 0 -> field.addVarint(random.nextLong());
        case 1 -> field.addFixed32(random.nextInt());
        case 2 -> field.addFixed64(random.nextLong());
        default -> field.addLengthDelimited(ByteString.copyFromUtf8(text(random, 10)));
      }
      if (number == 2) {
        // Field 2 is search_metadata (length-delimited): only a different wire type stays unknown.
        field = UnknownFieldSet.Field.newBuilder().addVarint(random.nextInt(1000));
      }
      set.mergeField(number, field.build());
    }
    return set.build();
  }

  /** Unicode text drawn from ASCII, other BMP scripts and supplementary planes (emoji). */
  static String text(Random random, int codePoints) {
    StringBuilder out = new StringBuilder(codePoints * 2);
    for (int i = 0; i < codePoints; i++) {
      int codePoint =
          switch (random.nextInt(6)) {
            case 0, 1, 2 -> 0x20 + random.nextInt(0x5f);
            case 3 -> 0xa0 + random.nextInt(0x2000);
            case 4 -> 0x4e00 + random.nextInt(0x5000);
            default -> 0x1f300 + random.nextInt(0x300);
          };
      out.appendCodePoint(codePoint);
    }
    return out.toString();
  }
}
