package dev.protomolt.bench.compiler;

import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.statemachines.CompileGraph;
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
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CompilerBenchmark {

  /** Where the largest golden graph is, relative to the bench module (overridable). */
  static final String GOLDEN = System.getProperty("bench.compiler.golden", "../statemachines/golden/largest-realistic/graph.json");

  PipelineGraph largest;
  PipelineGraph generated200;

  @Setup
  public void load() throws IOException {
    largest = CompileGraph.read(Path.of(GOLDEN));
    generated200 = GeneratedGraphs.layered(200, 20_261_130L);
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
  public String compileGenerated200() {
    return StateMachineCompiler.compile(generated200).definition();
  }

  @Benchmark
  public byte[] serializeGenerated200Proto() {
    return generated200.toByteArray();
  }
}
