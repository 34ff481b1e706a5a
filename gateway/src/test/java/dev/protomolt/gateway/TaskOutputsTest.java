package dev.protomolt.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Struct;
import com.google.protobuf.util.JsonFormat;
import dev.protomolt.proto.data.v1.DocumentReference;
import dev.protomolt.proto.data.v1.PipeStream;
import dev.protomolt.proto.data.v1.StreamMetadata;
import org.junit.jupiter.api.Test;

/** The Work state's output the gateway hands Step Functions. */
class TaskOutputsTest {

  @Test
  void aSuccessIsOneJsonObjectWhoseStreamReadsBackAsTheSameStream() throws Exception {
    PipeStream stream =
        PipeStream.newBuilder()
            .setStreamId("s-\"1\"\n")
            .setDocumentRef(
                DocumentReference.newBuilder()
                    .setDocId("doc \\ \u00e9")
                    .setGraphAddressId("chunker")
                    .setKeep(true))
            .setMetadata(StreamMetadata.newBuilder().setHopCount(3).putContextParams("k", "v"))
            .build();

    String output = TaskOutputs.success("wu-\"x\"", TaskOutputs.CONTINUE, stream);

    Struct parsed = parse(output);
    assertThat(parsed.getFieldsMap()).containsOnlyKeys("workUnitId", "outcome", "stream");
    assertThat(parsed.getFieldsOrThrow("workUnitId").getStringValue()).isEqualTo("wu-\"x\"");
    assertThat(parsed.getFieldsOrThrow("outcome").getStringValue()).isEqualTo("CONTINUE");
    PipeStream.Builder back = PipeStream.newBuilder();
    JsonFormat.parser()
        .merge(
            JsonFormat.printer().print(parsed.getFieldsOrThrow("stream").getStructValue()), back);
    assertThat(back.build()).isEqualTo(stream);
  }

  private static Struct parse(String json) throws Exception {
    Struct.Builder out = Struct.newBuilder();
    JsonFormat.parser().merge(json, out);
    return out.build();
  }
}
