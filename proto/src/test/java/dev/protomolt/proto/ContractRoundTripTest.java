package dev.protomolt.proto;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;
import dev.protomolt.proto.config.v1.GraphValidationProto;
import dev.protomolt.proto.config.v1.PipelineGraph;
import dev.protomolt.proto.config.v1.PipelineGraphProto;
import dev.protomolt.proto.data.v1.DocumentReferenceProto;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.PipeDocPartProto;
import dev.protomolt.proto.data.v1.PipeDocProto;
import dev.protomolt.proto.data.v1.PipeStreamProto;
import dev.protomolt.proto.engine.v1.EngineDiagnosticsProto;
import dev.protomolt.proto.engine.v1.PipelineGraphServiceProto;
import dev.protomolt.proto.events.v1.EventsProto;
import dev.protomolt.proto.module.v1.ModuleWorkServiceProto;
import dev.protomolt.proto.repository.v1.PipeDocPartsProto;
import dev.protomolt.proto.repository.v1.PipeDocServiceProto;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every contract survives binary and JSON round trips unchanged, with every field populated. */
class ContractRoundTripTest {

  private static final List<FileDescriptor> FILES =
      List.of(
          PipeDocProto.getDescriptor(), PipeDocPartProto.getDescriptor(),
          DocumentReferenceProto.getDescriptor(), PipeStreamProto.getDescriptor(),
          PipelineGraphProto.getDescriptor(), GraphValidationProto.getDescriptor(),
          PipeDocPartsProto.getDescriptor(), PipeDocServiceProto.getDescriptor(),
          ModuleWorkServiceProto.getDescriptor(), EventsProto.getDescriptor(),
          PipelineGraphServiceProto.getDescriptor(), EngineDiagnosticsProto.getDescriptor());

  // Any fields in the contracts carry PipeDocs; JSON needs the registry to print them.
  private static final JsonFormat.TypeRegistry TYPES =
      JsonFormat.TypeRegistry.newBuilder().add(PipeDoc.getDescriptor()).build();

  static Stream<Descriptor> everyMessageType() {
    List<Descriptor> all = new ArrayList<>();
    for (FileDescriptor file : FILES) {
      for (Descriptor type : file.getMessageTypes()) {
        collect(type, all);
      }
    }
    return all.stream();
  }

  private static void collect(Descriptor type, List<Descriptor> into) {
    if (type.getOptions().getMapEntry()) {
      return;
    }
    into.add(type);
    type.getNestedTypes().forEach(nested -> collect(nested, into));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("everyMessageType")
  void roundTripsThroughBinaryAndJson(Descriptor type) throws Exception {
    for (Message original : SampleMessages.everyArm(DynamicMessage.newBuilder(type))) {
      assertThat(original.getAllFields()).as("%s populated", type.getFullName()).isNotEmpty();

      Message fromBinary = DynamicMessage.parseFrom(type, original.toByteString());
      assertThat(fromBinary).isEqualTo(original);

      String json = JsonFormat.printer().usingTypeRegistry(TYPES).print(original);
      DynamicMessage.Builder fromJson = DynamicMessage.newBuilder(type);
      JsonFormat.parser().usingTypeRegistry(TYPES).merge(json, fromJson);
      assertThat(fromJson.build()).as(json).isEqualTo(original);
    }
  }

  @Test
  void pipelineGraphWithEveryFieldSetRoundTripsAsGeneratedType() throws Exception {
    PipelineGraph graph =
        (PipelineGraph) SampleMessages.everyArm(PipelineGraph.newBuilder()).get(0);
    assertThat(graph.getNodes(0).hasDesignConfig()).isTrue();
    assertThat(graph.getNodes(0).getPreMappingsCount()).isEqualTo(2);
    assertThat(graph.getEdges(0).getTransportTypeValue()).isNotZero();
    for (var field : PipelineGraph.getDescriptor().getFields()) {
      assertThat(
              field.isRepeated() ? graph.getRepeatedFieldCount(field) > 0 : graph.hasField(field))
          .as("PipelineGraph.%s set", field.getName())
          .isTrue();
    }

    assertThat(PipelineGraph.parseFrom(graph.toByteArray())).isEqualTo(graph);
    PipelineGraph.Builder fromJson = PipelineGraph.newBuilder();
    JsonFormat.parser().merge(JsonFormat.printer().print(graph), fromJson);
    assertThat(fromJson.build()).isEqualTo(graph);
  }
}
