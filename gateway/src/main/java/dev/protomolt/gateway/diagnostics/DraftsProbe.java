package dev.protomolt.gateway.diagnostics;

import com.google.protobuf.Timestamp;
import dev.protomolt.core.graph.DraftStore;
import dev.protomolt.proto.config.v1.GraphDraft;
import dev.protomolt.proto.engine.v1.ProbeResult;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Writes, reads and deletes a synthetic draft through the engine's own draft store adapter, so the
 * table, its key schema and the task role's grant are all exercised. The canary's expiry is a
 * minute away: a draft left behind by a failed delete disappears on its own.
 */
public final class DraftsProbe {

  private final Optional<DraftStore> drafts;
  private final String table;
  private final Clock clock;

  /**
   * @param drafts empty when no drafts table is configured; the probe then fails saying so
   */
  public DraftsProbe(Optional<DraftStore> drafts, String table, Clock clock) {
    this.drafts = Objects.requireNonNull(drafts, "drafts");
    this.table = Objects.requireNonNull(table, "table");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  public ProbeResult probe(String clusterId) {
    ProbeRun run = new ProbeRun("drafts");
    if (drafts.isEmpty()) {
      return run.fail(
              "DynamoDB drafts table: not configured (PROTOMOLT_DRAFTS_TABLE is unset on the"
                  + " gateway)")
          .result();
    }
    DraftStore store = drafts.get();
    String cluster = clusterId == null || clusterId.isBlank() ? "diagnostics" : clusterId;
    String id = "draft:" + cluster + ":diagnostics-canary:" + UUID.randomUUID();
    Instant now = clock.instant();
    Instant expires = now.plus(Duration.ofMinutes(1));
    GraphDraft canary =
        GraphDraft.newBuilder()
            .setDraftId(id)
            .setClusterId(cluster)
            .setGraphId("diagnostics-canary")
            .setUserId("diagnostics")
            .setUpdatedAt(Timestamp.newBuilder().setSeconds(now.getEpochSecond()))
            .setExpiresAt(Timestamp.newBuilder().setSeconds(expires.getEpochSecond()))
            .build();
    String dependency = "DynamoDB table " + table;
    run.step(
            "write",
            dependency,
            () -> {
              store.put(canary);
              return "put " + id;
            })
        .step(
            "read",
            dependency,
            () -> {
              GraphDraft back =
                  store
                      .get(id, now)
                      .orElseThrow(() -> new IllegalStateException("the canary draft is absent"));
              if (!back.equals(canary)) {
                throw new IllegalStateException("the canary draft came back changed");
              }
              return "read " + id + " back intact";
            })
        .step(
            "delete",
            dependency,
            () -> {
              if (!store.delete(id, now)) {
                throw new IllegalStateException("the canary draft was not there to delete");
              }
              return "deleted " + id;
            });
    return run.result();
  }
}
