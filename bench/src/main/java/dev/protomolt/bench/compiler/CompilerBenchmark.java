package dev.protomolt.bench.compiler;

import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.statemachines.CompileGraph;
import dev.protomolt.statemachines.GraphCompileException;
import dev.protomolt.statemachines.StateMachineCompiler;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Compile time of a graph version next to the time to serialize the same graph's proto, the
 * baseline: the admin service does both when it publishes a version, so the ratio says what
 * compiling adds to a publish.
 *
 * <p>A generated 200-node graph does not fit the 1 MB Step Functions request limit (about 130
 * nodes do), so the compiler refuses it at its last check, after emitting and checking every
 * state: {@link #compileGenerated200} measures the time to that refusal, and
 * {@link #compileGenerated120} a graph of the same shape that compiles.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CompilerBenchmark {

  /** Where the largest golden graph is, relative to the bench module (overridable). */
  static final String GOLDEN =
      System.getProperty(
          "bench.compiler.golden", "../statemachines/golden/largest-realistic/graph.json");

  static final long SEED = 20_261_130L;

  PipelineGraph largest;
  PipelineGraph generated120;
  PipelineGraph generated200;

  @Setup
  public void load() throws IOException {
    largest = CompileGraph.read(Path.of(GOLDEN));
    generated120 = GeneratedGraphs.layered(120, SEED);
    generated200 = GeneratedGraphs.layered(200, SEED);
  }

  @Benchmark
  public String compileLargestGolden() {
    return StateMachineCompiler.compile(largest).definition();
  }

  @Benchmark
  public byte[] serializeLargestGoldenProto() {
    return largest.toByteArray();
  }

  @Benchmark
  public String compileGenerated120() {
    return StateMachineCompiler.compile(generated120).definition();
  }

  @Benchmark
  public byte[] serializeGenerated120Proto() {
    return generated120.toByteArray();
  }

  @Benchmark
  public String compileGenerated200() {
    try {
      return StateMachineCompiler.compile(generated200).definition();
    } catch (GraphCompileException refused) {
      return refused.getMessage();
    }
  }

  @Benchmark
  public byte[] serializeGenerated200Proto() {
    return generated200.toByteArray();
  }
}
