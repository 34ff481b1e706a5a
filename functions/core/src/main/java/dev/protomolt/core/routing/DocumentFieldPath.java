package dev.protomolt.core.routing;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.ListValue;
import com.google.protobuf.Message;
import com.google.protobuf.NullValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Timestamp;
import com.google.protobuf.Value;
import dev.protomolt.proto.data.v1.PipeDoc;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A dotted path into a PipeDoc, e.g. {@code search_metadata.title} or {@code
 * search_metadata.custom_fields.topic}. Message fields are walked by proto field name; once the path
 * enters a {@code google.protobuf.Struct} the remaining segments are struct keys. Map and
 * repeated-message fields are not addressable: a path must name one place.
 */
public final class DocumentFieldPath {

  private final String path;
  private final List<FieldDescriptor> fields;
  private final List<String> structKeys;

  private DocumentFieldPath(String path, List<FieldDescriptor> fields, List<String> structKeys) {
    this.path = path;
    this.fields = fields;
    this.structKeys = structKeys;
  }

  /** Parses and resolves a path against PipeDoc; the error says which segment is wrong and why. */
  public static DocumentFieldPath parse(String path) {
    if (path == null || path.isBlank()) {
      throw new IllegalArgumentException("field path is blank");
    }
    String[] segments = path.split("\\.", -1);
    Descriptor descriptor = PipeDoc.getDescriptor();
    List<FieldDescriptor> fields = new ArrayList<>();
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < segments.length; i++) {
      String segment = segments[i];
      if (segment.isEmpty()) {
        throw new IllegalArgumentException("field path '" + path + "' has an empty segment");
      }
      if (descriptor == null) {
        throw new IllegalArgumentException(
            "field path '"
                + path
                + "': '"
                + segments[i - 1]
                + "' is a scalar and has no field '"
                + segment
                + "'");
      }
      if (descriptor.equals(Struct.getDescriptor())) {
        keys.add(segment);
        continue;
      }
      FieldDescriptor field = descriptor.findFieldByName(segment);
      if (field == null) {
        throw new IllegalArgumentException(
            "field path '"
                + path
                + "': "
                + descriptor.getName()
                + " has no field '"
                + segment
                + "'");
      }
      if (field.isMapField()) {
        throw new IllegalArgumentException(
            "field path '"
                + path
                + "': '"
                + segment
                + "' is a map field; map entries are not addressable by mappings");
      }
      boolean last = i == segments.length - 1;
      if (field.isRepeated()
          && (!last || field.getJavaType() == FieldDescriptor.JavaType.MESSAGE)) {
        throw new IllegalArgumentException(
            "field path '"
                + path
                + "': '"
                + segment
                + "' is a repeated field; only repeated scalars can be addressed, and only as the"
                + " last segment");
      }
      fields.add(field);
      descriptor =
          field.getJavaType() == FieldDescriptor.JavaType.MESSAGE
                  && !field.getMessageType().equals(Timestamp.getDescriptor())
              ? field.getMessageType()
              : null;
    }
    return new DocumentFieldPath(path, List.copyOf(fields), List.copyOf(keys));
  }

  public String path() {
    return path;
  }

  /** The value at the path as a plain Java value (String, Long, Double, Boolean, List, Map), or null when unset. */
  public Object read(PipeDoc doc) {
    Message current = doc;
    for (int i = 0; i < fields.size(); i++) {
      FieldDescriptor field = fields.get(i);
      boolean last = i == fields.size() - 1;
      if (!field.isRepeated() && field.hasPresence() && !current.hasField(field)) {
        return null;
      }
      Object value = current.getField(field);
      if (last && structKeys.isEmpty()) {
        return plain(value);
      }
      current = (Message) value;
    }
    Value value = null;
    Struct struct = (Struct) current;
    for (String key : structKeys) {
      if (struct == null || !struct.containsFields(key)) {
        return null;
      }
      value = struct.getFieldsOrThrow(key);
      struct = value.hasStructValue() ? value.getStructValue() : null;
    }
    return value == null ? plain(current) : plain(value);
  }

  /** A copy of {@code doc} with {@code value} written at the path, converted to the field's type. */
  public PipeDoc write(PipeDoc doc, Object value) {
    PipeDoc.Builder builder = doc.toBuilder();
    Message.Builder current = builder;
    for (int i = 0; i < fields.size() - 1; i++) {
      current = current.getFieldBuilder(fields.get(i));
    }
    FieldDescriptor lastField = fields.getLast();
    if (structKeys.isEmpty()) {
      setField(current, lastField, value);
    } else {
      Struct.Builder struct = (Struct.Builder) current.getFieldBuilder(lastField);
      putStructPath(struct, structKeys, 0, value);
    }
    return builder.build();
  }

  private void putStructPath(Struct.Builder struct, List<String> keys, int index, Object value) {
    String key = keys.get(index);
    if (index == keys.size() - 1) {
      struct.putFields(key, toValue(value));
      return;
    }
    Value existing = struct.getFieldsOrDefault(key, Value.getDefaultInstance());
    Struct.Builder child =
        existing.hasStructValue() ? existing.getStructValue().toBuilder() : Struct.newBuilder();
    putStructPath(child, keys, index + 1, value);
    struct.putFields(key, Value.newBuilder().setStructValue(child).build());
  }

  private void setField(Message.Builder target, FieldDescriptor field, Object value) {
    if (value == null) {
      target.clearField(field);
      return;
    }
    if (field.isRepeated()) {
      target.clearField(field);
      Collection<?> items = value instanceof Collection<?> c ? c : List.of(value);
      for (Object item : items) {
        target.addRepeatedField(field, scalar(field, item));
      }
      return;
    }
    if (field.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
      if (field.getMessageType().equals(Struct.getDescriptor()) && value instanceof Map<?, ?> map) {
        target.setField(field, toValue(map).getStructValue());
      } else if (field.getMessageType().equals(Timestamp.getDescriptor())
          && value instanceof Instant t) {
        target.setField(
            field,
            Timestamp.newBuilder().setSeconds(t.getEpochSecond()).setNanos(t.getNano()).build());
      } else if (value instanceof Message m
          && m.getDescriptorForType().equals(field.getMessageType())) {
        target.setField(field, m);
      } else {
        throw new IllegalArgumentException(
            "cannot write a "
                + value.getClass().getSimpleName()
                + " into "
                + field.getMessageType().getName()
                + " field '"
                + path
                + "'");
      }
      return;
    }
    target.setField(field, scalar(field, value));
  }

  private Object scalar(FieldDescriptor field, Object value) {
    return switch (field.getJavaType()) {
      case STRING -> value instanceof String s ? s : textOf(value);
      case LONG ->
          value instanceof Number n && isIntegral(n) ? n.longValue() : mismatch(field, value);
      case INT ->
          value instanceof Number n && isIntegral(n) && n.longValue() == n.intValue()
              ? n.intValue()
              : mismatch(field, value);
      case DOUBLE -> value instanceof Number n ? n.doubleValue() : mismatch(field, value);
      case FLOAT -> value instanceof Number n ? n.floatValue() : mismatch(field, value);
      case BOOLEAN -> value instanceof Boolean b ? b : mismatch(field, value);
      default -> mismatch(field, value);
    };
  }

  private static boolean isIntegral(Number n) {
    return n instanceof Long
        || n instanceof Integer
        || n instanceof Short
        || (n instanceof Double d && d == Math.rint(d) && !d.isInfinite());
  }

  private Object mismatch(FieldDescriptor field, Object value) {
    throw new IllegalArgumentException(
        "cannot write "
            + describe(value)
            + " into "
            + field.getJavaType().name().toLowerCase()
            + " field '"
            + path
            + "'");
  }

  private static String describe(Object value) {
    return value.getClass().getSimpleName() + " '" + value + "'";
  }

  private static String textOf(Object value) {
    if (value instanceof Number || value instanceof Boolean || value instanceof CharSequence) {
      return String.valueOf(value);
    }
    throw new IllegalArgumentException("cannot write " + describe(value) + " into a string field");
  }

  /** Converts a CEL or Java value to a protobuf Struct Value. */
  static Value toValue(Object value) {
    return switch (value) {
      case null -> Value.newBuilder().setNullValue(NullValue.NULL_VALUE).build();
      case Value v -> v;
      case String s -> Value.newBuilder().setStringValue(s).build();
      case Boolean b -> Value.newBuilder().setBoolValue(b).build();
      case Number n -> Value.newBuilder().setNumberValue(n.doubleValue()).build();
      case Collection<?> c -> {
        ListValue.Builder list = ListValue.newBuilder();
        c.forEach(item -> list.addValues(toValue(item)));
        yield Value.newBuilder().setListValue(list).build();
      }
      case Map<?, ?> m -> {
        Struct.Builder struct = Struct.newBuilder();
        m.forEach((k, v) -> struct.putFields(String.valueOf(k), toValue(v)));
        yield Value.newBuilder().setStructValue(struct).build();
      }
      default -> Value.newBuilder().setStringValue(String.valueOf(value)).build();
    };
  }

  /** Proto values to plain Java, so DIRECT copies and AGGREGATE joins see simple values. */
  static Object plain(Object value) {
    return switch (value) {
      case null -> null;
      case Value v ->
          switch (v.getKindCase()) {
            case NULL_VALUE, KIND_NOT_SET -> null;
            case NUMBER_VALUE -> v.getNumberValue();
            case STRING_VALUE -> v.getStringValue();
            case BOOL_VALUE -> v.getBoolValue();
            case STRUCT_VALUE -> plain(v.getStructValue());
            case LIST_VALUE ->
                v.getListValue().getValuesList().stream().map(DocumentFieldPath::plain).toList();
          };
      case Struct s -> {
        Map<String, Object> out = new LinkedHashMap<>();
        s.getFieldsMap().forEach((k, v) -> out.put(k, plain(v)));
        yield out;
      }
      case Integer i -> i.longValue();
      case Float f -> f.doubleValue();
      case List<?> l -> l.stream().map(DocumentFieldPath::plain).toList();
      default -> value;
    };
  }

  @Override
  public String toString() {
    return path;
  }
}
