package dev.protomolt.lambda.console;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.protomolt.core.doclog.DocumentLog;
import dev.protomolt.core.doclog.DocumentLogState;
import dev.protomolt.core.doclog.LogKey;
import dev.protomolt.core.doclog.ModuleLogLines;
import dev.protomolt.core.orchestration.AdmissionLog.AdmissionRecord;
import dev.protomolt.engine.hop.ExecutionTranscripts;
import dev.protomolt.engine.hop.ExecutionTranscripts.QueuedHop;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The module logs of one document's journey (decision 1754): each admission's execution
 * transcript names the work units its hops were handed to, and each work unit's log is read line
 * by line, stamped lines split into instant, level and text. Lines come a page at a time in the
 * order the hops ran; a page token names the work unit and line the next page starts at, so lines
 * a still-open log gains meanwhile are on a later page, never skipped.
 */
final class DocumentLogs {

  /** Lines one call returns at most. */
  static final int LINE_LIMIT = 500;

  /** Lines one call returns when it names no {@code limit}. */
  static final int LINE_PAGE = 200;

  private final ObjectMapper mapper;
  private final DocumentLog log;

  DocumentLogs(ObjectMapper mapper, DocumentLog log) {
    this.mapper = Objects.requireNonNull(mapper, "mapper");
    this.log = Objects.requireNonNull(log, "logs");
  }

  /** Where a page starts: line {@code line} of work unit {@code workUnitId}'s log. */
  record PageStart(String workUnitId, int line) {

    String token() {
      return Base64.getUrlEncoder()
          .withoutPadding()
          .encodeToString((workUnitId + "|" + line).getBytes(StandardCharsets.UTF_8));
    }

    /** Checked before the grant, as every route's own fields are. */
    static PageStart parse(String token) {
      if (token == null) {
        return null;
      }
      try {
        String text = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
        int bar = text.lastIndexOf('|');
        int line = Integer.parseInt(text.substring(bar + 1));
        if (bar < 1 || line < 0) {
          throw new IllegalArgumentException(text);
        }
        return new PageStart(text.substring(0, bar), line);
      } catch (IllegalArgumentException | StringIndexOutOfBoundsException e) {
        throw invalidToken();
      }
    }
  }

  /** A page size: {@value #LINE_PAGE} when absent, 1 to {@value #LINE_LIMIT} when given. */
  static int limit(String value) {
    if (value == null) {
      return LINE_PAGE;
    }
    try {
      int n = Integer.parseInt(value);
      if (n >= 1 && n <= LINE_LIMIT) {
        return n;
      }
    } catch (NumberFormatException e) {
      // Refused below with the value the caller sent.
    }
    throw ConsoleRefusal.badRequest(
        "limit", "must be a whole number from 1 to " + LINE_LIMIT + ", was '" + value + "'");
  }

  private static ConsoleRefusal invalidToken() {
    return ConsoleRefusal.badRequest(
        "pageToken", "is not a token this API returned as nextPageToken for this document");
  }

  private record Hop(AdmissionRecord admission, QueuedHop queued, LogKey key) {}

  /**
   * One page of the document's module logs; the caller has checked that {@code admissions} are
   * the caller's (the document's admissions in the named account and datasource).
   */
  ObjectNode page(
      String accountId,
      String docId,
      List<AdmissionRecord> admissions,
      int limit,
      PageStart start) {
    List<Hop> hops = new ArrayList<>();
    boolean transcribed = false;
    for (AdmissionRecord r : admissions) {
      if (r.executionArn() == null || r.executionArn().isBlank()) {
        continue;
      }
      Optional<String> transcript =
          log.read(ExecutionTranscripts.keyOf(accountId, r.executionArn()));
      transcribed |= transcript.isPresent();
      for (QueuedHop q : ExecutionTranscripts.queuedHops(transcript.orElse(""))) {
        hops.add(
            new Hop(r, q, LogKey.workUnitLog(LogKey.accountCollection(accountId), q.workUnitId())));
      }
    }
    int first = 0;
    int firstLine = 0;
    if (start != null) {
      first = -1;
      for (int i = 0; i < hops.size(); i++) {
        if (hops.get(i).queued().workUnitId().equals(start.workUnitId())) {
          first = i;
          break;
        }
      }
      if (first < 0) {
        throw invalidToken();
      }
      firstLine = start.line();
    }
    ObjectNode out = mapper.createObjectNode();
    out.put("docId", docId);
    out.put("accountId", accountId);
    // No transcript at all: the deployment writes none (decision 1675), so no hop can be named.
    out.put("transcribed", transcribed);
    ArrayNode groups = out.putArray("hops");
    int budget = limit;
    for (int i = first; i < hops.size(); i++) {
      Hop hop = hops.get(i);
      if (budget == 0) {
        out.put("nextPageToken", new PageStart(hop.queued().workUnitId(), 0).token());
        break;
      }
      Optional<String> text = log.read(hop.key());
      List<ModuleLogLines.Line> lines = ModuleLogLines.of(text.orElse(""));
      int from = i == first ? Math.min(firstLine, lines.size()) : 0;
      int to = Math.min(lines.size(), from + budget);
      ObjectNode g = groups.addObject();
      g.put("executionArn", hop.admission().executionArn());
      g.put("graphId", hop.admission().graphId());
      g.put("graphVersion", hop.admission().graphVersion());
      g.put("hop", hop.queued().hop());
      g.put("nodeId", hop.queued().nodeId());
      g.put("moduleId", hop.queued().moduleId());
      g.put("workUnitId", hop.queued().workUnitId());
      g.put("queuedAt", hop.queued().queuedAt());
      g.put("logged", text.isPresent());
      g.put("sealed", log.status(hop.key()).map(DocumentLogState::sealed).orElse(false));
      g.put("lineCount", lines.size());
      ArrayNode list = g.putArray("lines");
      for (ModuleLogLines.Line line : lines.subList(from, to)) {
        ObjectNode l = list.addObject();
        l.put("line", line.number());
        l.put("at", line.at());
        l.put("level", line.level());
        l.put("source", line.source().name());
        l.put("text", line.text());
      }
      budget -= to - from;
      if (to < lines.size()) {
        out.put("nextPageToken", new PageStart(hop.queued().workUnitId(), to).token());
        break;
      }
    }
    return out;
  }
}
