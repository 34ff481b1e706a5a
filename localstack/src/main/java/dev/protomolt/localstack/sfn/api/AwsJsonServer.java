package dev.protomolt.localstack.sfn.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.protomolt.localstack.sfn.Arns;
import dev.protomolt.localstack.sfn.Clock;
import dev.protomolt.localstack.sfn.SfnApiException;
import dev.protomolt.localstack.sfn.asl.Json;
import dev.protomolt.localstack.sfn.engine.ExecutionEngine;
import dev.protomolt.localstack.sfn.store.ExecutionStore;
import dev.protomolt.localstack.sfn.store.StateMachineStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The Step Functions API over AWS JSON 1.0 on loopback: {@code POST /} with
 * {@code X-Amz-Target: AWSStepFunctions.<Operation>}; errors are HTTP 400 with {@code __type} and
 * {@code message}, which the AWS SDKs and the CLI turn into their typed exceptions.
 */
public final class AwsJsonServer {

  private static final Logger LOG = Logger.getLogger(AwsJsonServer.class.getName());
  private static final String TARGET_PREFIX = "AWSStepFunctions.";
  private static final String CONTENT_TYPE = "application/x-amz-json-1.0";

  private final HttpServer server;
  private final Map<String, Function<JsonNode, JsonNode>> operations;

  public AwsJsonServer(
      int port,
      StateMachineStore machines,
      ExecutionStore executions,
      ExecutionEngine engine,
      Arns arns,
      Clock clock)
      throws IOException {
    StateMachineOperations sm = new StateMachineOperations(machines, arns, clock);
    ExecutionOperations ex = new ExecutionOperations(executions, machines, engine, arns);
    this.operations =
        Map.ofEntries(
            Map.entry("CreateStateMachine", sm::create),
            Map.entry("UpdateStateMachine", sm::update),
            Map.entry("DescribeStateMachine", sm::describe),
            Map.entry("ListStateMachines", sm::list),
            Map.entry("PublishStateMachineVersion", sm::publishVersion),
            Map.entry("CreateStateMachineAlias", sm::createAlias),
            Map.entry("UpdateStateMachineAlias", sm::updateAlias),
            Map.entry("DescribeStateMachineAlias", sm::describeAlias),
            Map.entry("StartExecution", ex::start),
            Map.entry("DescribeExecution", ex::describe),
            Map.entry("ListExecutions", ex::list),
            Map.entry("StopExecution", ex::stop),
            Map.entry("RedriveExecution", ex::redrive),
            Map.entry("GetExecutionHistory", ex::history),
            Map.entry("SendTaskSuccess", ex::sendTaskSuccess),
            Map.entry("SendTaskFailure", ex::sendTaskFailure),
            Map.entry("SendTaskHeartbeat", ex::sendTaskHeartbeat));
    try {
      this.server =
          HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
    } catch (BindException e) {
      throw new IOException(
          "Step Functions port "
              + port
              + " is already in use on 127.0.0.1; "
              + "pick another port for the local Step Functions runtime",
          e);
    }
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.createContext("/", this::handle);
  }

  public void start() {
    server.start();
  }

  public int port() {
    return server.getAddress().getPort();
  }

  public void stop() {
    server.stop(0);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
      int status;
      JsonNode body;
      try {
        if (!"POST".equals(exchange.getRequestMethod())
            || target == null
            || !target.startsWith(TARGET_PREFIX)) {
          throw new SfnApiException(
              "UnknownOperationException",
              "Expected POST with " + "X-Amz-Target: AWSStepFunctions.<Operation>");
        }
        Function<JsonNode, JsonNode> operation =
            operations.get(target.substring(TARGET_PREFIX.length()));
        if (operation == null) {
          throw new SfnApiException(
              "UnknownOperationException",
              "The local Step Functions " + "runtime does not serve " + target);
        }
        JsonNode request;
        try (InputStream in = exchange.getRequestBody()) {
          String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
          request = text.isBlank() ? Json.object() : Json.parse(text);
        } catch (IllegalArgumentException e) {
          throw new SfnApiException("SerializationException", e.getMessage());
        }
        body = operation.apply(request);
        status = 200;
      } catch (SfnApiException e) {
        body = error(e.type(), e.getMessage());
        status = 400;
      } catch (RuntimeException e) {
        LOG.log(Level.SEVERE, "local Step Functions request failed", e);
        body = error("InternalFailure", e.toString());
        status = 500;
      }
      byte[] bytes = Json.print(body).getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
      exchange.getResponseHeaders().set("x-amzn-RequestId", UUID.randomUUID().toString());
      exchange.sendResponseHeaders(status, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  private static ObjectNode error(String type, String message) {
    ObjectNode body = Json.object();
    body.put("__type", type);
    body.put("message", message);
    return body;
  }
}
