package dev.protomolt.repository.doclog;

import java.nio.ByteBuffer;

/**
 * A string as its UTF-16 code units, two big-endian bytes each, and back. Unlike any charset
 * encoder this is exact for every Java string: a NUL or a lone surrogate in a log line survives
 * storage, so a part's text and SHA-256 read back as written.
 */
final class Utf16Bytes {

  private Utf16Bytes() {}

  static byte[] encode(String text) {
    ByteBuffer bytes = ByteBuffer.allocate(text.length() * 2);
    bytes.asCharBuffer().put(text);
    return bytes.array();
  }

  static String decode(byte[] bytes) {
    if (bytes.length % 2 != 0) {
      throw new IllegalStateException(
          "stored text has "
              + bytes.length
              + " bytes, not a whole number of UTF-16 code units; the row was not written by this"
              + " store");
    }
    return ByteBuffer.wrap(bytes).asCharBuffer().toString();
  }
}
