package dev.protomolt.lambda.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Timestamp;
import dev.protomolt.engine.replay.ReplayInput;
import dev.protomolt.engine.replay.ReplayPlan;
import dev.protomolt.engine.replay.ReplayProgress;
import dev.protomolt.engine.replay.ReplayRefused;
import dev.protomolt.lambda.EventJson;
import dev.protomolt.proto.repository.v1.IndexingOutcomeFilter;
import dev.protomolt.proto.repository.v1.StreamDocumentsForReplayRequest;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The replay state machine's JSON (decision 1700): the input an operator writes by hand, and the
 * {@code plan} and {@code progress} the state carries between pages. A hand-written input is read
 * strictly: an unknown or misspelt field is refused by name rather than ignored, because an
 * ignored selector would widen the replay.
 */
public final class ReplayStateJson {

  static final Set<String> INPUT_FIELDS =
      Set.of(
          "replay_id",
          "requested_by",
          "account_id",
          "selectors",
          "graph_id",
          "graph_version",
          "target_node",
          "dry_run",
          "rate_per_second",
          "page_size");

  static final Set<String> SELECTOR_FIELDS =
      Set.of(
          "doc_ids",
          "crawl_id",
          "datasource_id",
          "modified_after",
          "modified_before",
          "indexing_outcome");

  private ReplayStateJson() {}

  /** The operator's input as the engine's request; every refusal names the field. */
  public static ReplayInput input(JsonNode in) {
    if (in == null || !in.isObject()) {
      throw new ReplayRefused("input", "must be a JSON object");
    }
    unknown(in, INPUT_FIELDS, "");
    StreamDocumentsForReplayRequest.Builder selectors =
        StreamDocumentsForReplayRequest.newBuilder().setAccountId(text(in, "account_id", ""));
    JsonNode s = in.get("selectors");
    if (s != null && !s.isNull()) {
      if (!s.isObject()) {
        throw new ReplayRefused("selectors", "must be a JSON object");
      }
      unknown(s, SELECTOR_FIELDS, "selectors.");
      JsonNode docs = s.get("doc_ids");
      if (docs != null && !docs.isNull()) {
        if (!docs.isArray()) {
          throw new ReplayRefused("selectors.doc_ids", "must be an array of document ids");
        }
        for (int i = 0; i < docs.size(); i++) {
          if (!docs.get(i).isTextual()) {
            throw new ReplayRefused("selectors.doc_ids[" + i + "]", "must be a string");
          }
          selectors.addDocIds(docs.get(i).asText());
        }
      }
      selectors.setCrawlId(text(s, "crawl_id", "selectors."));
      selectors.setDatasourceId(text(s, "datasource_id", "selectors."));
      instant(s, "modified_after").ifPresent(selectors::setModifiedAfter);
      instant(s, "modified_before").ifPresent(selectors::setModifiedBefore);
      String outcome = text(s, "indexing_outcome", "selectors.");
      if (!outcome.isEmpty()) {
        selectors.setIndexingOutcome(outcome(outcome));
      }
    }
    return new ReplayInput(
        text(in, "replay_id", ""),
        text(in, "requested_by", ""),
        selectors.build(),
        text(in, "graph_id", ""),
        version(in),
        text(in, "target_node", ""),
        bool(in, "dry_run"),
        (int) integer(in, "rate_per_second", 0),
        (int) integer(in, "page_size", ReplayInput.DEFAULT_PAGE_SIZE));
  }

  static ObjectNode plan(ReplayPlan plan) {
    ObjectNode out = EventJson.reply();
    out.put("replay_id", plan.replayId());
    out.put("requested_by", plan.requestedBy());
    out.put("run_arn", plan.runArn());
    out.put("graph_id", plan.graphId());
    out.put("graph_version", plan.graphVersion());
    out.put("version_arn", plan.versionArn());
    out.put("target_node", plan.targetNode());
    out.put("candidates_total", plan.candidatesTotal());
    out.put(
        "selected_before", plan.selectedBefore() == null ? "" : plan.selectedBefore().toString());
    return out;
  }

  static ReplayPlan plan(JsonNode p) {
    return new ReplayPlan(
        p.path("replay_id").asText(),
        p.path("requested_by").asText(),
        p.path("run_arn").asText(),
        p.path("graph_id").asText(),
        p.path("graph_version").asLong(),
        p.path("version_arn").asText(),
        p.path("target_node").asText(),
        p.path("candidates_total").asLong(),
        // A state written before runs carried the bound has none: its pages read unbounded.
        p.path("selected_before").asText("").isEmpty()
            ? null
            : Instant.parse(p.path("selected_before").asText()));
  }

  static ObjectNode progress(ReplayProgress progress) {
    ObjectNode out = EventJson.reply();
    out.put("cursor", progress.cursor());
    out.put("pages", progress.pages());
    out.put("candidates", progress.candidates());
    ObjectNode counts = out.putObject("counts");
    progress.counts().forEach(counts::put);
    out.put("pages_in_execution", progress.pagesInExecution());
    out.put("generation", progress.generation());
    out.put("next", progress.next());
    out.put("continuation_name", progress.continuationName());
    progress.unreplayed().forEach(out.putArray("unreplayed")::add);
    return out;
  }

  static ReplayProgress progress(JsonNode p) {
    Map<String, Long> counts = new LinkedHashMap<>();
    p.path("counts").properties().forEach(e -> counts.put(e.getKey(), e.getValue().asLong()));
    List<String> unreplayed = new ArrayList<>();
    p.path("unreplayed").forEach(n -> unreplayed.add(n.asText()));
    return new ReplayProgress(
        p.path("cursor").asText(),
        p.path("pages").asLong(),
        p.path("candidates").asLong(),
        counts,
        p.path("pages_in_execution").asInt(),
        p.path("generation").asInt(),
        p.path("next").asText(),
        p.path("continuation_name").asText(),
        unreplayed);
  }

  /** The state a Lambda step returns: the input as written, the plan and the progress. */
  static ObjectNode state(JsonNode request, ReplayPlan plan, ReplayProgress progress) {
    ObjectNode out = EventJson.reply();
    out.set("request", request);
    out.set("plan", plan(plan));
    out.set("progress", progress(progress));
    return out;
  }

  private static void unknown(JsonNode node, Set<String> known, String path) {
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!known.contains(name)) {
        throw new ReplayRefused(
            path + name,
            "is not a replay input field; the fields are "
                + String.join(", ", known.stream().sorted().toList()));
      }
    }
  }

  private static String text(JsonNode parent, String field, String path) {
    JsonNode value = parent.get(field);
    if (value == null || value.isNull()) {
      return "";
    }
    if (!value.isTextual()) {
      throw new ReplayRefused(path + field, "must be a string");
    }
    return value.asText();
  }

  private static boolean bool(JsonNode parent, String field) {
    JsonNode value = parent.get(field);
    if (value == null || value.isNull()) {
      return false;
    }
    if (!value.isBoolean()) {
      throw new ReplayRefused(field, "must be true or false");
    }
    return value.asBoolean();
  }

  private static long integer(JsonNode parent, String field, long fallback) {
    JsonNode value = parent.get(field);
    if (value == null || value.isNull()) {
      return fallback;
    }
    if (!value.isIntegralNumber() || !value.canConvertToInt()) {
      throw new ReplayRefused(field, "must be a whole number");
    }
    return value.asLong();
  }

  /** {@code graph_version}: a version number, or {@code "active"} (also the default). */
  private static OptionalLong version(JsonNode in) {
    JsonNode value = in.get("graph_version");
    if (value == null || value.isNull() || (value.isTextual() && value.asText().equals("active"))) {
      return OptionalLong.empty();
    }
    if (!value.isIntegralNumber() || !value.canConvertToLong()) {
      throw new ReplayRefused(
          "graph_version", "must be a version number or \"active\", was " + value);
    }
    return OptionalLong.of(value.asLong());
  }

  private static java.util.Optional<Timestamp> instant(JsonNode selectors, String field) {
    String text = text(selectors, field, "selectors.");
    if (text.isEmpty()) {
      return java.util.Optional.empty();
    }
    try {
      Instant at = Instant.parse(text);
      return java.util.Optional.of(
          Timestamp.newBuilder().setSeconds(at.getEpochSecond()).setNanos(at.getNano()).build());
    } catch (DateTimeParseException e) {
      throw new ReplayRefused(
          "selectors." + field,
          "must be an ISO-8601 instant such as 2026-03-01T12:00:00Z, was '" + text + "'");
    }
  }

  private static IndexingOutcomeFilter outcome(String text) {
    return switch (text) {
      case "NEVER_INDEXED" -> IndexingOutcomeFilter.INDEXING_OUTCOME_FILTER_NEVER_INDEXED;
      case "FAILED" -> IndexingOutcomeFilter.INDEXING_OUTCOME_FILTER_FAILED;
      case "INDEXED" -> IndexingOutcomeFilter.INDEXING_OUTCOME_FILTER_INDEXED;
      default ->
          throw new ReplayRefused(
              "selectors.indexing_outcome",
              "must be NEVER_INDEXED, FAILED or INDEXED, was '" + text + "'");
    };
  }
}
