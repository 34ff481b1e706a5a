package dev.protomolt.core.parts;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.Struct;
import com.google.protobuf.Timestamp;
import com.google.protobuf.UnknownFieldSet;
import com.google.protobuf.Value;
import dev.protomolt.proto.data.v1.Blob;
import dev.protomolt.proto.data.v1.BlobBag;
import dev.protomolt.proto.data.v1.ChunkEmbedding;
import dev.protomolt.proto.data.v1.OwnershipContext;
import dev.protomolt.proto.data.v1.ParsedMetadata;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.SearchMetadata;
import dev.protomolt.proto.data.v1.SemanticChunk;
import dev.protomolt.proto.data.v1.SemanticProcessingResult;

/** Hand-built documents shared by the codec tests (and by other modules through the test jar). */
public final class SampleDocuments {
  private SampleDocuments() {}

  /** A document with every part populated, unknown fields at two levels, and repeated chunk runs. */
  public static PipeDoc full() {
    return PipeDoc.newBuilder()
        .setDocId("s3://bucket/path with spaces/ä文書.pdf?x=1#frag")
        .setSearchMetadata(
            SearchMetadata.newBuilder()
                .setTitle("Quarterly report")
                .setBody("The body text.")
                .addKeywords("finance")
                .addKeywords("q3")
                .setLanguage("en")
                .setContentLength(14)
                .setCreationDate(Timestamp.newBuilder().setSeconds(1_700_000_000L))
                .setCustomFields(
                    Struct.newBuilder()
                        .putFields("zeta", Value.newBuilder().setNumberValue(1).build())
                        .putFields("alpha", Value.newBuilder().setStringValue("a").build()))
                .addSemanticResults(result("sentences-v1", 2))
                .addSemanticResults(result("sentences-v1", 1))
                .addSemanticResults(result("paragraphs", 1))
                .addSemanticResults(result("", 1))
                .addSemanticResults(result("", 1))
                .addSemanticResults(result("sentences-v1", 1))
                .setAuthor("Ann")
                .setUnknownFields(
                    UnknownFieldSet.newBuilder()
                        .addField(40, UnknownFieldSet.Field.newBuilder().addVarint(7).build())
                        .build()))
        .setBlobBag(
            BlobBag.newBuilder()
                .setBlob(
                    Blob.newBuilder()
                        .setBlobId("b1")
                        .setData(ByteString.copyFrom(new byte[] {1, 2, 3, 0, -1}))
                        .setMimeType("application/pdf")
                        .putMetadata("z", "last")
                        .putMetadata("a", "first")))
        .putParsedMetadata("tika", parsed("tika"))
        .putParsedMetadata("docling", parsed("docling"))
        .setStructuredData(Any.pack(Timestamp.newBuilder().setSeconds(5).build()))
        .setOwnership(OwnershipContext.newBuilder().setAccountId("acct-1").addGroupIds("g"))
        .setUnknownFields(
            UnknownFieldSet.newBuilder()
                .addField(
                    99,
                    UnknownFieldSet.Field.newBuilder()
                        .addLengthDelimited(ByteString.copyFromUtf8("from a newer writer"))
                        .build())
                .build())
        .build();
  }

  public static SemanticProcessingResult result(String resultId, int chunks) {
    SemanticProcessingResult.Builder result =
        SemanticProcessingResult.newBuilder()
            .setResultId(resultId)
            .setSourceFieldName("body")
            .setChunkConfigId("cfg")
            .putMetadata("k", Value.newBuilder().setBoolValue(true).build());
    for (int i = 0; i < chunks; i++) {
      result.addChunks(
          SemanticChunk.newBuilder()
              .setChunkId(resultId + "-" + i)
              .setChunkNumber(i)
              .setEmbeddingInfo(
                  ChunkEmbedding.newBuilder()
                      .setTextContent("chunk " + i)
                      .addVector(0.25f)
                      .addVector(-1.5f)));
    }
    return result.build();
  }

  static ParsedMetadata parsed(String parser) {
    return ParsedMetadata.newBuilder()
        .setParserName(parser)
        .setParserVersion("1")
        .setData(
            Struct.newBuilder().putFields("pages", Value.newBuilder().setNumberValue(3).build()))
        .build();
  }
}
