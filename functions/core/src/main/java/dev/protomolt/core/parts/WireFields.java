package dev.protomolt.core.parts;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The fields of one level of a serialized message, as byte ranges, without decoding their values.
 * Fragment splicing reads only the levels the split cut (the PipeDoc, its search_metadata, and a
 * semantic result's result_id) and copies everything else as it is.
 */
final class WireFields {
  /**
   * One field occurrence: its number and wire type, and where it lies in the array.
   *
   * @param number       field number
   * @param wireType     wire type
   * @param start        offset of the tag
   * @param end          offset after the value
   * @param payloadStart offset of a length-delimited value's payload (after the length); else the value
   */
  record Field(int number, int wireType, int start, int end, int payloadStart) {
    boolean isLengthDelimited() {
      return wireType == WireFormat.WIRETYPE_LENGTH_DELIMITED;
    }
  }

  private WireFields() {}

  /** The fields in {@code bytes[from, to)}, in order; fails on malformed or truncated input. */
  static List<Field> of(byte[] bytes, int from, int to) throws InvalidProtocolBufferException {
    CodedInputStream input = CodedInputStream.newInstance(bytes, from, to - from);
    List<Field> fields = new ArrayList<>();
    try {
      while (true) {
        int start = from + input.getTotalBytesRead();
        int tag = input.readTag();
        if (tag == 0) {
          return fields;
        }
        int wireType = WireFormat.getTagWireType(tag);
        int payloadStart;
        if (wireType == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
          int length = input.readRawVarint32();
          payloadStart = from + input.getTotalBytesRead();
          input.skipRawBytes(length);
        } else {
          payloadStart = from + input.getTotalBytesRead();
          if (!input.skipField(tag)) {
            throw new InvalidProtocolBufferException("unexpected end-group tag at offset " + start);
          }
        }
        fields.add(
            new Field(
                WireFormat.getTagFieldNumber(tag),
                wireType,
                start,
                from + input.getTotalBytesRead(),
                payloadStart));
      }
    } catch (InvalidProtocolBufferException e) {
      throw e;
    } catch (IOException e) {
      // A CodedInputStream over an array reports only InvalidProtocolBufferException.
      throw new InvalidProtocolBufferException(e);
    }
  }

  /**
   * Whether the field is one the message type knows with the wire type it expects; anything else
   * is kept by protobuf as an unknown field and serialized after the known ones.
   */
  static boolean isKnown(Descriptor type, Field field) {
    FieldDescriptor descriptor = type.findFieldByNumber(field.number());
    if (descriptor == null) {
      return false;
    }
    return field.wireType() == descriptor.getLiteType().getWireType()
        || (descriptor.isPackable() && field.isLengthDelimited());
  }
}
