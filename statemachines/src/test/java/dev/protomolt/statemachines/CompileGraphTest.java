package dev.protomolt.statemachines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompileGraphTest {

  @Test
  void readsProtobufJsonAndRefusesUnknownFields(@TempDir Path dir) throws IOException {
    Path good = dir.resolve("good.json");
    Files.writeString(
        good, "{\"graphId\": \"g\", \"version\": \"3\", \"nodes\": [{\"nodeId\": \"n\"}]}");
    assertThat(CompileGraph.read(good).getVersion()).isEqualTo(3);

    Path typo = dir.resolve("typo.json");
    Files.writeString(typo, "{\"graphId\": \"g\", \"nodez\": []}");
    assertThatThrownBy(() -> CompileGraph.read(typo))
        .isInstanceOf(InvalidProtocolBufferException.class)
        .hasMessageContaining("nodez");
  }
}
