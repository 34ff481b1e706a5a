package dev.protomolt.core.parts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnknownFieldSet;
import dev.protomolt.core.parts.WireFields.Field;
import dev.protomolt.proto.data.v1.PipeDoc;
import dev.protomolt.proto.data.v1.SearchMetadata;
import java.util.List;
import org.junit.jupiter.api.Test;

class WireFieldsTest {
  @Test
  void fieldsAreReportedWithTheirRanges() throws Exception {
    byte[] bytes =
        PipeDoc.newBuilder()
            .setDocId("abc")
            .setSearchMetadata(SearchMetadata.newBuilder().setContentLength(300))
            .setUnknownFields(
                UnknownFieldSet.newBuilder()
                    .addField(2, UnknownFieldSet.Field.newBuilder().addVarint(7).build())
                    .build())
            .build()
            .toByteArray();

    List<Field> fields = WireFields.of(bytes, 0, bytes.length);

    assertThat(fields).extracting(Field::number).containsExactly(1, 2, 2);
    assertThat(
            new String(
                bytes,
                fields.get(0).payloadStart(),
                fields.get(0).end() - fields.get(0).payloadStart()))
        .isEqualTo("abc");
    assertThat(fields.get(2).end()).isEqualTo(bytes.length);
    assertThat(WireFields.isKnown(PipeDoc.getDescriptor(), fields.get(1))).isTrue();
    assertThat(WireFields.isKnown(PipeDoc.getDescriptor(), fields.get(2)))
        .as("field 2 as a varint")
        .isFalse();
  }

  @Test
  void truncatedAndMalformedInputIsRefused() {
    assertThatThrownBy(() -> WireFields.of(new byte[] {0x0a, 0x05, 'a'}, 0, 3))
        .isInstanceOf(InvalidProtocolBufferException.class);
    assertThatThrownBy(() -> WireFields.of(new byte[] {0x00, 0x01}, 0, 2))
        .isInstanceOf(InvalidProtocolBufferException.class);
    assertThatThrownBy(() -> WireFields.of(new byte[] {0x0c}, 0, 1))
        .as("a lone end-group tag")
        .isInstanceOf(InvalidProtocolBufferException.class);
  }
}
