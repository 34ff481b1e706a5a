package dev.protomolt.lambda.handlers;

import dev.protomolt.lambda.EventHandler;
import dev.protomolt.lambda.EventJson;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * {@code prepare}, {@code dispatch}, {@code complete} and {@code dlq}: a Step Functions task input
 * (the Parameters the compiled definition builds, with {@code taskToken} for dispatch) goes to the
 * hop service as JSON text, and the service's JSON reply is the task result. The hop services own
 * the state contract, so they name a missing field themselves; this handler only refuses an event
 * that is not a JSON object before any service work starts.
 */
public final class HopHandler implements EventHandler {

  private final EventJson json;
  private final UnaryOperator<String> service;

  /**
   * @param function the handler name, for error messages
   * @param service the hop service's {@code handle(String)}
   */
  public HopHandler(String function, UnaryOperator<String> service) {
    this.json = new EventJson(Objects.requireNonNull(function, "function"));
    this.service = Objects.requireNonNull(service, "service");
  }

  @Override
  public void handle(InputStream event, OutputStream reply) throws IOException {
    byte[] bytes = event.readAllBytes();
    json.object(new ByteArrayInputStream(bytes));
    String answer = service.apply(new String(bytes, StandardCharsets.UTF_8));
    reply.write(answer.getBytes(StandardCharsets.UTF_8));
  }
}
