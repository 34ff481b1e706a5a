package dev.protomolt.lambda;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Reads the JSON payload fixtures under {@code src/test/resources/fixtures/}. */
final class Fixtures {

  private Fixtures() {}

  static String text(String name) {
    String path = name.contains("/") ? "/" + name : "/fixtures/" + name;
    try (InputStream in = Fixtures.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("no fixture " + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
