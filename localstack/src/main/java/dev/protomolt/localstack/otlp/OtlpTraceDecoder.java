package dev.protomolt.localstack.otlp;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnknownFieldSet;
import dev.protomolt.core.tracing.TraceSpan;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Reads an OTLP {@code ExportTraceServiceRequest} (protobuf, as OTLP/HTTP posts it to {@code
 * /v1/traces}) into {@link TraceSpan}s by field number, without generated OTLP classes: the
 * collector needs a dozen fields of the published schema, and the project's protobuf runtime
 * reads them as it reads any message.
 */
final class OtlpTraceDecoder {

  private static final String[] STATUS = {"UNSET", "OK", "ERROR"};
  private static final HexFormat HEX = HexFormat.of();

  private OtlpTraceDecoder() {}

  /**
   * @throws InvalidProtocolBufferException when the body is not a protobuf message
   */
  static List<TraceSpan> decode(byte[] body) throws InvalidProtocolBufferException {
    List<TraceSpan> spans = new java.util.ArrayList<>();
    UnknownFieldSet request = UnknownFieldSet.parseFrom(body);
    // ExportTraceServiceRequest.resource_spans = 1
    for (ByteString resourceSpans : messages(request, 1)) {
      UnknownFieldSet rs = UnknownFieldSet.parseFrom(resourceSpans);
      String service = "";
      // ResourceSpans.resource = 1; Resource.attributes = 1
      for (ByteString resource : messages(rs, 1)) {
        service =
            attributes(UnknownFieldSet.parseFrom(resource), 1).getOrDefault("service.name", "");
      }
      // ResourceSpans.scope_spans = 2; ScopeSpans.spans = 2
      for (ByteString scopeSpans : messages(rs, 2)) {
        for (ByteString span : messages(UnknownFieldSet.parseFrom(scopeSpans), 2)) {
          spans.add(span(UnknownFieldSet.parseFrom(span), service));
        }
      }
    }
    return spans;
  }

  private static TraceSpan span(UnknownFieldSet s, String service)
      throws InvalidProtocolBufferException {
    String status = "UNSET";
    String message = "";
    // Span.status = 15; Status.message = 2, Status.code = 3
    for (ByteString st : messages(s, 15)) {
      UnknownFieldSet fields = UnknownFieldSet.parseFrom(st);
      message = text(fields, 2);
      long code = varint(fields, 3);
      status = code >= 0 && code < STATUS.length ? STATUS[(int) code] : "UNSET";
    }
    return new TraceSpan(
        hex(s, 1),
        hex(s, 2),
        hex(s, 4),
        text(s, 5),
        service,
        fixed64(s, 7),
        fixed64(s, 8),
        status,
        message,
        attributes(s, 9));
  }

  /**
   * KeyValue {key = 1, value = 2: AnyValue}; AnyValue's scalars rendered as text, an array's
   * (ArrayValue {values = 1}) joined by commas, as X-Ray's annotation list is read back.
   */
  private static Map<String, String> attributes(UnknownFieldSet owner, int field)
      throws InvalidProtocolBufferException {
    Map<String, String> out = new HashMap<>();
    for (ByteString kv : messages(owner, field)) {
      UnknownFieldSet pair = UnknownFieldSet.parseFrom(kv);
      String key = text(pair, 1);
      String value = "";
      for (ByteString any : messages(pair, 2)) {
        UnknownFieldSet v = UnknownFieldSet.parseFrom(any);
        if (v.hasField(5)) {
          List<String> items = new ArrayList<>();
          for (ByteString item : messages(UnknownFieldSet.parseFrom(messages(v, 5).getLast()), 1)) {
            items.add(scalar(UnknownFieldSet.parseFrom(item)));
          }
          value = String.join(",", items);
        } else {
          value = scalar(v);
        }
      }
      out.put(key, value);
    }
    return out;
  }

  private static String scalar(UnknownFieldSet v) {
    if (v.hasField(1)) {
      return text(v, 1);
    } else if (v.hasField(2)) {
      return Boolean.toString(varint(v, 2) != 0);
    } else if (v.hasField(3)) {
      return Long.toString(varint(v, 3));
    } else if (v.hasField(4)) {
      return Double.toString(Double.longBitsToDouble(fixed64(v, 4)));
    }
    return "";
  }

  private static List<ByteString> messages(UnknownFieldSet owner, int field) {
    return owner.hasField(field) ? owner.getField(field).getLengthDelimitedList() : List.of();
  }

  private static String text(UnknownFieldSet owner, int field) {
    List<ByteString> values = messages(owner, field);
    return values.isEmpty() ? "" : values.getLast().toStringUtf8();
  }

  private static String hex(UnknownFieldSet owner, int field) {
    List<ByteString> values = messages(owner, field);
    return values.isEmpty() ? "" : HEX.formatHex(values.getLast().toByteArray());
  }

  private static long varint(UnknownFieldSet owner, int field) {
    if (!owner.hasField(field)) {
      return 0;
    }
    List<Long> values = owner.getField(field).getVarintList();
    return values.isEmpty() ? 0 : values.getLast();
  }

  private static long fixed64(UnknownFieldSet owner, int field) {
    if (!owner.hasField(field)) {
      return 0;
    }
    List<Long> values = owner.getField(field).getFixed64List();
    return values.isEmpty() ? 0 : values.getLast();
  }
}
