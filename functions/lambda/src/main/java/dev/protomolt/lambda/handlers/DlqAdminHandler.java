package dev.protomolt.lambda.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.protomolt.engine.deadletters.DeadLetter;
import dev.protomolt.engine.deadletters.DeadLetterAdmin;
import dev.protomolt.lambda.EventHandler;
import dev.protomolt.lambda.EventJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Instant;
import java.util.Objects;

/**
 * {@code dlq-admin}: the operators' door to dead letters, invoked with the Lambda Invoke API (the
 * CLI's {@code protomolt dlq}). Every request is {@code {"action", "accountId", "graphId", ...}}:
 *
 * <ul>
 *   <li>{@code list} (+ {@code nodeId?}, {@code pageToken?}, {@code limit?}): {@code {deadLetters:
 *       [summary], nextPageToken?}}
 *   <li>{@code show} (+ {@code dlqId}): {@code {deadLetter: summary, message: <DlqMessage as proto
 *       JSON>}}
 *   <li>{@code reprocess} (+ {@code dlqId} or {@code all: true} with {@code nodeId?}): {@code
 *       {outcomes: [{dlqId, verdict, detail}]}}
 * </ul>
 *
 * A summary is {@code {dlqId, topic, partition, offset, nodeId, docId, streamId, errorCode, reason, failedAt,
 * reprocessCount, executionArn, quarantined?}}. A refused request throws {@code
 * DeadLetterRefused}, whose message starts with the field.
 */
public final class DlqAdminHandler implements EventHandler {

  public static final String NAME = "dlq-admin";

  private final EventJson json = new EventJson(NAME);
  private final DeadLetterAdmin admin;

  public DlqAdminHandler(DeadLetterAdmin admin) {
    this.admin = Objects.requireNonNull(admin, "admin");
  }

  @Override
  public void handle(InputStream event, OutputStream reply) throws IOException {
    JsonNode request = json.object(event);
    String action = json.text(request, "", "action");
    String account = json.text(request, "", "accountId");
    String graph = json.text(request, "", "graphId");
    ObjectNode out = EventJson.reply();
    switch (action) {
      case "list" -> {
        DeadLetterAdmin.ListPage page =
            admin.list(
                account,
                graph,
                optional(request, "nodeId"),
                optional(request, "pageToken"),
                request.hasNonNull("limit") ? (int) json.integer(request, "", "limit", 1) : null);
        ArrayNode letters = out.putArray("deadLetters");
        page.letters().forEach(l -> letters.add(summary(l)));
        page.nextPageToken().ifPresent(t -> out.put("nextPageToken", t));
      }
      case "show" -> {
        DeadLetterAdmin.Listed l = admin.show(account, graph, json.text(request, "", "dlqId"));
        out.set("deadLetter", summary(l));
        try {
          out.set(
              "message",
              EventJson.MAPPER.readTree(JsonFormat.printer().print(l.letter().message())));
        } catch (InvalidProtocolBufferException e) {
          throw new IllegalStateException("dead letter does not print as JSON", e);
        }
      }
      case "reprocess" -> {
        String dlqId = optional(request, "dlqId");
        boolean all = request.path("all").asBoolean(false);
        if ((dlqId == null) == !all) {
          throw json.refuse("dlqId", "or all: true is required, and not both");
        }
        outcomes(out, admin.reprocess(account, graph, dlqId, optional(request, "nodeId")));
      }
      default ->
          throw json.refuse("action", "must be list, show or reprocess, got '" + action + "'");
    }
    EventJson.write(reply, out);
  }

  /** An optional text field; absent and empty are the same: not given. */
  private String optional(JsonNode request, String field) {
    String value = json.optionalText(request, "", field);
    return value == null || value.isEmpty() ? null : value;
  }

  /** Reprocess outcomes as {@code outcomes: [{dlqId, verdict, detail}]}; the console's too. */
  public static void outcomes(ObjectNode out, java.util.List<DeadLetterAdmin.Outcome> outcomes) {
    ArrayNode items = out.putArray("outcomes");
    for (DeadLetterAdmin.Outcome o : outcomes) {
      ObjectNode item = items.addObject();
      item.put("dlqId", o.dlqId());
      item.put("verdict", o.verdict().name());
      item.put("detail", o.detail());
    }
  }

  /** One letter as the door lists it; the console's dead-letter route answers the same. */
  public static ObjectNode summary(DeadLetterAdmin.Listed listed) {
    DeadLetter l = listed.letter();
    ObjectNode item = EventJson.MAPPER.createObjectNode();
    item.put("dlqId", l.message().getDlqId());
    item.put("topic", l.topic());
    item.put("partition", l.partition());
    item.put("offset", l.offset());
    item.put("nodeId", l.message().getNodeId());
    item.put("docId", l.docId());
    item.put("streamId", l.streamId());
    item.put("errorCode", l.message().getError().getCode());
    item.put("reason", l.message().getError().getMessage());
    item.put(
        "failedAt",
        Instant.ofEpochSecond(
                l.message().getFailedAt().getSeconds(), l.message().getFailedAt().getNanos())
            .toString());
    item.put("reprocessCount", l.message().getReprocessCount());
    item.put("executionArn", l.message().getExecutionArn());
    listed.quarantined().ifPresent(reason -> item.put("quarantined", reason));
    return item;
  }
}
