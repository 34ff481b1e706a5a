package dev.protomolt.proto;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Duration;
import com.google.protobuf.Message;
import com.google.protobuf.Struct;
import com.google.protobuf.Timestamp;
import com.google.protobuf.Value;
import dev.protomolt.proto.data.v1.PipeDoc;
import java.util.List;

/**
 * Builds messages with every field set (every oneof arm in turn, every map and repeated field with
 * two entries) so round-trip tests exercise the whole schema rather than a hand-picked subset.
 */
final class SampleMessages {

  private static final int MAX_DEPTH = 4;

  private SampleMessages() {}

  /** One fully populated message per oneof arm of the top-level type (at least one message). */
  static List<Message> everyArm(Message.Builder prototype) {
    Descriptor type = prototype.getDescriptorForType();
    var arms = type.getRealOneofs().stream().flatMap(o -> o.getFields().stream()).toList();
    if (arms.isEmpty()) {
      return List.of(fill(prototype.clone(), 0, null));
    }
    return arms.stream().map(arm -> fill(prototype.clone(), 0, arm)).toList();
  }

  private static Message fill(Message.Builder builder, int depth, FieldDescriptor chosenArm) {
    Descriptor type = builder.getDescriptorForType();
    if (type.getFullName().equals(Any.getDescriptor().getFullName())) {
      return Any.pack(PipeDoc.newBuilder().setDocId("any-doc-" + depth).build());
    }
    if (type.getFullName().equals(Struct.getDescriptor().getFullName())) {
      return Struct.newBuilder()
          .putFields("text", Value.newBuilder().setStringValue("é✓").build())
          .putFields("number", Value.newBuilder().setNumberValue(2.5).build())
          .build();
    }
    if (type.getFullName().equals(Value.getDescriptor().getFullName())) {
      return Value.newBuilder().setBoolValue(true).build();
    }
    if (type.getFullName().equals(Duration.getDescriptor().getFullName())) {
      return Duration.newBuilder().setSeconds(42).setNanos(5_000_000).build();
    }
    if (type.getFullName().equals(Timestamp.getDescriptor().getFullName())) {
      return Timestamp.newBuilder().setSeconds(1_764_000_000L).setNanos(123_000_000).build();
    }
    for (FieldDescriptor field : type.getFields()) {
      var oneof = field.getRealContainingOneof();
      if (oneof != null) {
        FieldDescriptor pick =
            chosenArm != null && chosenArm.getContainingOneof() == oneof
                ? chosenArm
                : oneof.getField(0);
        if (!field.equals(pick)) {
          continue;
        }
      }
      if (field.getJavaType() == FieldDescriptor.JavaType.MESSAGE && depth >= MAX_DEPTH) {
        continue;
      }
      if (field.isMapField()) {
        for (int i = 0; i < 2; i++) {
          Message.Builder entry = builder.newBuilderForField(field);
          Descriptor entryType = field.getMessageType();
          entry.setField(
              entryType.findFieldByName("key"),
              sample(entry, entryType.findFieldByName("key"), depth, i));
          entry.setField(
              entryType.findFieldByName("value"),
              sample(entry, entryType.findFieldByName("value"), depth, i));
          builder.addRepeatedField(field, entry.build());
        }
      } else if (field.isRepeated()) {
        for (int i = 0; i < 2; i++) {
          builder.addRepeatedField(field, sample(builder, field, depth, i));
        }
      } else {
        builder.setField(field, sample(builder, field, depth, 0));
      }
    }
    return builder.build();
  }

  private static Object sample(Message.Builder owner, FieldDescriptor field, int depth, int i) {
    return switch (field.getJavaType()) {
      case STRING -> field.getName() + "-" + i + "-ü";
      case INT -> field.getNumber() + i + 1;
      case LONG -> 1_000_000_000_000L + field.getNumber() + i;
      case FLOAT -> 0.5f + i;
      case DOUBLE -> 1.25 + i;
      case BOOLEAN -> true;
      case BYTE_STRING -> ByteString.copyFrom(new byte[] {0, (byte) 0xFF, (byte) i, 42});
      case ENUM -> lastValue(field);
      case MESSAGE -> fill(owner.newBuilderForField(field), depth + 1, null);
    };
  }

  /** The highest enum value, so a default (0) never hides a dropped field. */
  private static EnumValueDescriptor lastValue(FieldDescriptor field) {
    List<EnumValueDescriptor> values = field.getEnumType().getValues();
    return values.get(values.size() - 1);
  }
}
