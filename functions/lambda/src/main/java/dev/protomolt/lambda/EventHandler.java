package dev.protomolt.lambda;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * One named function: the event bytes AWS delivers in, the reply bytes out, the shape of Lambda's
 * {@code RequestStreamHandler} without its context. The Quarkus app and the local cloud call the
 * same implementation with the same bytes, so a function behaves the same in both places.
 *
 * <p>A handler never catches and renames a failure: whatever it throws reaches the runtime, which
 * reports the exception's fully qualified class name as the invocation's {@code errorType}.
 */
public interface EventHandler {

  /** Handles one invocation: reads the whole event from {@code event}, writes the reply. */
  void handle(InputStream event, OutputStream reply) throws IOException;

  /** The same invocation with JSON text on both sides, as the local Lambda runner passes it. */
  default String handleText(String event) {
    ByteArrayOutputStream reply = new ByteArrayOutputStream();
    try {
      handle(new ByteArrayInputStream(event.getBytes(StandardCharsets.UTF_8)), reply);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return reply.toString(StandardCharsets.UTF_8);
  }
}
