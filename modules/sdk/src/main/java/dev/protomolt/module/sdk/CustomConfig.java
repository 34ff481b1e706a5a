package dev.protomolt.module.sdk;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import dev.protomolt.proto.module.v1.RejectReason;
import java.util.Optional;

/**
 * Typed reads of a node's {@code custom_config}. A value of the wrong type or out of range is a
 * {@link DocumentRejectedException} naming the field and the rule, never a silent default.
 */
public final class CustomConfig {

  private final Struct struct;

  public CustomConfig(Struct struct) {
    this.struct = struct == null ? Struct.getDefaultInstance() : struct;
  }

  public Struct struct() {
    return struct;
  }

  public boolean has(String name) {
    return struct.containsFields(name)
        && struct.getFieldsOrThrow(name).getKindCase() != Value.KindCase.NULL_VALUE;
  }

  /** A whole number within [min, max], or {@code fallback} when absent. */
  public int intValue(String name, int fallback, int min, int max)
      throws DocumentRejectedException {
    if (!has(name)) {
      return fallback;
    }
    Value value = struct.getFieldsOrThrow(name);
    double number;
    if (value.getKindCase() == Value.KindCase.NUMBER_VALUE) {
      number = value.getNumberValue();
    } else if (value.getKindCase() == Value.KindCase.STRING_VALUE) {
      try {
        number = Double.parseDouble(value.getStringValue().trim());
      } catch (NumberFormatException e) {
        throw invalid(name, "must be a whole number, got \"" + value.getStringValue() + "\"");
      }
    } else {
      throw invalid(name, "must be a whole number, got a " + kindName(value));
    }
    if (number != Math.rint(number) || Double.isInfinite(number)) {
      throw invalid(name, "must be a whole number, got " + number);
    }
    if (number < min || number > max) {
      throw invalid(name, "must be between " + min + " and " + max + ", got " + (long) number);
    }
    return (int) number;
  }

  public Optional<String> stringValue(String name) throws DocumentRejectedException {
    if (!has(name)) {
      return Optional.empty();
    }
    Value value = struct.getFieldsOrThrow(name);
    if (value.getKindCase() != Value.KindCase.STRING_VALUE) {
      throw invalid(name, "must be a string, got a " + kindName(value));
    }
    return Optional.of(value.getStringValue());
  }

  private static String kindName(Value value) {
    return switch (value.getKindCase()) {
      case NUMBER_VALUE -> "number";
      case STRING_VALUE -> "string";
      case BOOL_VALUE -> "boolean";
      case STRUCT_VALUE -> "object";
      case LIST_VALUE -> "list";
      default -> "null";
    };
  }

  private static DocumentRejectedException invalid(String name, String rule) {
    return new DocumentRejectedException(
        RejectReason.REJECT_REASON_INVALID_INPUT, "custom_config." + name + " " + rule);
  }
}
