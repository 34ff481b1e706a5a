package dev.protomolt.lambda.quarkus;

import com.amazonaws.services.lambda.runtime.Context;
import dev.protomolt.lambda.EventHandler;
import dev.protomolt.lambda.wiring.ContainerClients;
import dev.protomolt.lambda.wiring.FunctionEnvironment;
import dev.protomolt.lambda.wiring.FunctionWiring;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Clock;

/**
 * What every named Quarkus handler does: on its first invocation build the named handler from the
 * container's environment, then pass each event's bytes to it. The subclasses in
 * {@link NamedFunctions} only carry the name; Quarkus instantiates the one whose {@code @Named}
 * value {@code quarkus.lambda.handler} (env {@code QUARKUS_LAMBDA_HANDLER}) names. Nothing is
 * caught here: a thrown exception reaches the runtime, which reports its class name as errorType.
 */
abstract class QuarkusFunction {

  private final String name;
  private volatile EventHandler handler;

  QuarkusFunction(String name) {
    this.name = name;
  }

  public void handleRequest(InputStream input, OutputStream output, Context context)
      throws IOException {
    handler().handle(input, output);
  }

  String name() {
    return name;
  }

  private EventHandler handler() {
    EventHandler h = handler;
    if (h == null) {
      synchronized (this) {
        h = handler;
        if (h == null) {
          h =
              new FunctionWiring(
                      new ContainerClients(FunctionEnvironment.fromSystem(), Clock.systemUTC()))
                  .handler(name);
          handler = h;
        }
      }
    }
    return h;
  }
}
