package dev.protomolt.lambda.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;
import dev.protomolt.lambda.EventHandler;
import dev.protomolt.lambda.EventJson;
import dev.protomolt.lambda.handlers.KafkaBatch.KafkaRecord;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * An MSK-triggered function: the batch's record values, each one protobuf message of type
 * {@code T}, go to one application service call as a list, and the service's report is the reply.
 * A record that does not decode refuses the whole batch before the service sees any of it, naming
 * the record's topic, partition and offset: Lambda then retries the batch and no record is
 * skipped (decision 0831).
 */
public final class KafkaBatchHandler<T extends MessageLite> implements EventHandler {

  private final EventJson json;
  private final String messageType;
  private final Parser<T> parser;
  private final Function<List<T>, JsonNode> service;

  /**
   * @param function the handler name
   * @param messageType the message's name, for errors
   * @param parser the message's protobuf parser
   * @param service one application service call over the whole batch, returning its report
   */
  public KafkaBatchHandler(
      String function, String messageType, Parser<T> parser, Function<List<T>, JsonNode> service) {
    this.json = new EventJson(Objects.requireNonNull(function, "function"));
    this.messageType = Objects.requireNonNull(messageType, "messageType");
    this.parser = Objects.requireNonNull(parser, "parser");
    this.service = Objects.requireNonNull(service, "service");
  }

  @Override
  public void handle(InputStream event, OutputStream reply) throws IOException {
    List<KafkaRecord> records = KafkaBatch.records(json, json.object(event));
    List<T> batch = new ArrayList<>(records.size());
    for (KafkaRecord r : records) {
      try {
        batch.add(parser.parseFrom(r.value()));
      } catch (InvalidProtocolBufferException e) {
        throw json.refuse(
            r.path() + ".value",
            "must be a "
                + messageType
                + " (protobuf); topic "
                + r.topic()
                + " partition "
                + r.partition()
                + " offset "
                + r.offset()
                + " is not: "
                + e.getMessage(),
            e);
      }
    }
    JsonNode report = service.apply(batch);
    var out = EventJson.reply();
    out.put("records", batch.size());
    out.set("report", report);
    EventJson.write(reply, out);
  }
}
