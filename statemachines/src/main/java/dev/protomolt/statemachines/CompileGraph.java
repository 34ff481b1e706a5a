package dev.protomolt.statemachines;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.protomolt.proto.config.v1.PipelineGraph;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Command line door to the compiler: {@code CompileGraph <graph.json> [<out.asl.json>]} reads a
 * PipelineGraph in protobuf JSON and writes its ASL (to stdout without a second argument). Used by
 * the determinism test, which compiles in a separate JVM, and handy for inspecting a graph.
 */
public final class CompileGraph {

  private CompileGraph() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 1 || args.length > 2) {
      System.err.println("usage: CompileGraph <graph.json> [<out.asl.json>]");
      System.exit(2);
    }
    String definition;
    try {
      definition = StateMachineCompiler.compile(read(Path.of(args[0]))).definition();
    } catch (GraphCompileException | InvalidProtocolBufferException e) {
      System.err.println(e.getMessage());
      System.exit(1);
      return;
    }
    if (args.length == 2) {
      Files.writeString(Path.of(args[1]), definition, StandardCharsets.UTF_8);
    } else {
      PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
      out.print(definition);
      out.flush();
    }
  }

  /** Parses protobuf JSON strictly: an unknown field is an error, not silently dropped. */
  public static PipelineGraph read(Path graphJson) throws IOException {
    PipelineGraph.Builder builder = PipelineGraph.newBuilder();
    JsonFormat.parser().merge(Files.readString(graphJson, StandardCharsets.UTF_8), builder);
    return builder.build();
  }
}
