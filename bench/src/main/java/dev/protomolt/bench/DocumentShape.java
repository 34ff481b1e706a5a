package dev.protomolt.bench;

import com.google.protobuf.ByteString;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import dev.protomolt.proto.data.v1.Blob;
import dev.protomolt.proto.data.v1.BlobBag;
import dev.protomolt.proto.data.v1.Blobs;
import dev.protomolt.proto.data.v1.ChunkEmbedding;
import dev.protomolt.proto.data.v1.ParsedMetadata;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.data.v1.SemanticChunk;
import dev.protomolt.proto.data.v1.SemanticProcessingResult;
import java.util.Random;

/** The three document shapes the part-codec benchmark measures, built deterministically. */
public enum DocumentShape {
  /** Thousands of short strings: keywords, custom fields, parser output structs. */
  SMALL_STRINGS {
    @Override
    PipeDoc build(Random random) {
      SearchMetadata.Builder sm =
          SearchMetadata.newBuilder().setTitle(words(random, 12)).setBody(words(random, 400));
      for (int i = 0; i < 2_000; i++) {
        sm.addKeywords(words(random, 2));
      }
      sm.setCustomFields(struct(random, 500));
      PipeDoc.Builder doc =
          PipeDoc.newBuilder().setDocId("bench/small-strings").setSearchMetadata(sm);
      for (int p = 0; p < 20; p++) {
        doc.putParsedMetadata(
            "parser-" + p,
            ParsedMetadata.newBuilder()
                .setParserName("parser-" + p)
                .setData(struct(random, 50))
                .build());
      }
      return doc.build();
    }
  },
  /** Two 4 MiB inline blobs and little else. */
  LARGE_BLOBS {
    @Override
    PipeDoc build(Random random) {
      return PipeDoc.newBuilder()
          .setDocId("bench/large-blobs")
          .setSearchMetadata(SearchMetadata.newBuilder().setTitle("archive"))
          .setBlobBag(
              BlobBag.newBuilder()
                  .setBlobs(
                      Blobs.newBuilder()
                          .addBlob(blob(random, 4 << 20))
                          .addBlob(blob(random, 4 << 20))))
          .build();
    }
  },
  /** 20 chunk sets of 50 chunks, each chunk with 500 characters of text and a 384-float vector. */
  CHUNKS_WITH_VECTORS {
    @Override
    PipeDoc build(Random random) {
      SearchMetadata.Builder sm = SearchMetadata.newBuilder().setTitle("chunked");
      for (int set = 0; set < 20; set++) {
        SemanticProcessingResult.Builder result =
            SemanticProcessingResult.newBuilder()
                .setResultId("chunker-" + (set % 5) + "/embedder-" + (set / 5))
                .setSourceFieldName("body")
                .setChunkConfigId("sentences")
                .setEmbeddingConfigId("minilm");
        for (int c = 0; c < 50; c++) {
          ChunkEmbedding.Builder embedding =
              ChunkEmbedding.newBuilder()
                  .setTextContent(words(random, 80))
                  .setChunkId(set + ":" + c);
          for (int d = 0; d < 384; d++) {
            embedding.addVector((float) random.nextGaussian());
          }
          result.addChunks(
              SemanticChunk.newBuilder()
                  .setChunkId(set + ":" + c)
                  .setChunkNumber(c)
                  .setEmbeddingInfo(embedding));
        }
        sm.addSemanticResults(result);
      }
      return PipeDoc.newBuilder().setDocId("bench/chunks").setSearchMetadata(sm).build();
    }
  };

  abstract PipeDoc build(Random random);

  /** The shape's canonical bytes; the same every run. */
  public byte[] bytes() {
    return build(new Random(42)).toByteArray();
  }

  private static String words(Random random, int count) {
    StringBuilder out = new StringBuilder(count * 6);
    for (int i = 0; i < count; i++) {
      if (i > 0) {
        out.append(' ');
      }
      int length = 2 + random.nextInt(7);
      for (int c = 0; c < length; c++) {
        out.append((char) ('a' + random.nextInt(26)));
      }
    }
    return out.toString();
  }

  private static Struct struct(Random random, int fields) {
    Struct.Builder struct = Struct.newBuilder();
    for (int i = 0; i < fields; i++) {
      struct.putFields("field-" + i, Value.newBuilder().setStringValue(words(random, 3)).build());
    }
    return struct.build();
  }

  private static Blob blob(Random random, int size) {
    byte[] data = new byte[size];
    random.nextBytes(data);
    return Blob.newBuilder()
        .setBlobId("blob-" + size)
        .setData(ByteString.copyFrom(data))
        .setMimeType("application/octet-stream")
        .setSizeBytes(size)
        .build();
  }
}
