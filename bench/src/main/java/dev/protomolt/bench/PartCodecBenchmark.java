package dev.protomolt.bench;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.protomolt.core.parts.ObjectKeys;
import dev.protomolt.core.parts.PipeDocPartCodec;
import dev.protomolt.core.parts.SplitDocument;
import dev.protomolt.proto.data.v1.PipeDoc;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Split + hash + assemble of one document (the codec's full write-then-read cycle, including the
 * SHA-256 of every fragment on split and its verification on assembly), next to the baseline: a
 * plain {@code parseFrom} + {@code toByteArray} round trip of the same bytes.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class PartCodecBenchmark {
  @Param({"SMALL_STRINGS", "LARGE_BLOBS", "CHUNKS_WITH_VECTORS"})
  public DocumentShape shape;

  private final PipeDocPartCodec codec = new PipeDocPartCodec();
  private final ObjectKeys keys =
      ObjectKeys.forNode("acct/pipeline/", UUID.nameUUIDFromBytes(new byte[] {1}));
  private byte[] original;

  @Setup
  public void setUp() {
    original = shape.bytes();
    SplitDocument split = codec.split(keys, original);
    if (!Arrays.equals(codec.assembleBytes(split.manifest(), split.bytesByObjectKey()), original)) {
      throw new IllegalStateException("codec does not round-trip the " + shape + " document");
    }
  }

  @Benchmark
  public byte[] baselineParseSerialize() throws InvalidProtocolBufferException {
    return PipeDoc.parseFrom(original).toByteArray();
  }

  /**
   * The least any SHA-256-verifying codec must do: hash the document's bytes once when writing
   * the fragments and once when verifying them on read. Not a baseline, a floor for context.
   */
  @Benchmark
  public byte[] sha256Floor() throws NoSuchAlgorithmException {
    MessageDigest digest = MessageDigest.getInstance("SHA-256");
    digest.digest(original);
    return digest.digest(original);
  }

  @Benchmark
  public byte[] codecSplitHashAssemble() {
    SplitDocument split = codec.split(keys, original);
    return codec.assembleBytes(split.manifest(), split.bytesByObjectKey());
  }
}
