package dev.protomolt.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.protomolt.proto.config.v1.PipelineGraph;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A pipeline graph file: protobuf's JSON form of {@code PipelineGraph} ({@code .json}, or anything
 * not named {@code .yaml}/{@code .yml}), or the same fields in YAML. Unknown fields are refused, so
 * a misspelt field name is an error rather than a silently missing setting.
 */
final class GraphFile {

  private GraphFile() {}

  static PipelineGraph read(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      throw CommandFailure.refused("FILE: " + file + " does not exist");
    } catch (IOException e) {
      throw CommandFailure.refused("FILE: cannot read " + file + ": " + e.getMessage());
    }
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    boolean yaml = name.endsWith(".yaml") || name.endsWith(".yml");
    String json = text;
    if (yaml) {
      try {
        JsonNode tree = new ObjectMapper(new YAMLFactory()).readTree(text);
        json = new ObjectMapper().writeValueAsString(tree);
      } catch (IOException e) {
        throw CommandFailure.refused("FILE: " + file + " is not valid YAML: " + e.getMessage());
      }
    }
    PipelineGraph.Builder graph = PipelineGraph.newBuilder();
    try {
      JsonFormat.parser().merge(json, graph);
    } catch (InvalidProtocolBufferException | RuntimeException e) {
      throw CommandFailure.refused(
          "FILE: "
              + file
              + " is not a PipelineGraph in protobuf "
              + (yaml ? "YAML" : "JSON")
              + " form: "
              + e.getMessage());
    }
    return graph.build();
  }

  /** The graph as protobuf JSON, for {@code graph show}. */
  static String json(PipelineGraph graph) {
    try {
      return JsonFormat.printer().print(graph);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("a built graph always prints: " + e.getMessage(), e);
    }
  }
}
