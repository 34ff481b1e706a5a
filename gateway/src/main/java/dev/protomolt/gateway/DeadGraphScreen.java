package dev.protomolt.gateway;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.protomolt.proto.module.v1.WorkDispatch;
import java.time.Duration;
import java.util.Objects;

/**
 * Drains dispatches pinned to a graph version that has been deleted (decision 0854). A deleted
 * version never comes back, so "gone" is remembered for good and a backlog of one dead graph costs
 * one lookup; "exists" is re-checked after a short while.
 */
public final class DeadGraphScreen implements WorkScreen {

  /** The drain reason: nothing will ever complete the hop of a deleted version. */
  public static final String DELETED = "graph-version-deleted";

  private record Pin(String graphId, long version) {}

  private final GraphVersions versions;
  private final Cache<Pin, Boolean> gone = Caffeine.newBuilder().maximumSize(10_000).build();
  private final Cache<Pin, Boolean> live;

  public DeadGraphScreen(GraphVersions versions, Duration liveTtl) {
    this.versions = Objects.requireNonNull(versions, "versions");
    this.live = Caffeine.newBuilder().maximumSize(10_000).expireAfterWrite(liveTtl).build();
  }

  @Override
  public ScreenVerdict screen(WorkDispatch dispatch) {
    if (dispatch.getGraphId().isEmpty() || dispatch.getGraphVersion() <= 0) {
      return ScreenVerdict.SERVE;
    }
    Pin pin = new Pin(dispatch.getGraphId(), dispatch.getGraphVersion());
    if (live.getIfPresent(pin) != null) {
      return ScreenVerdict.SERVE;
    }
    if (gone.getIfPresent(pin) == null) {
      if (versions.exists(pin.graphId(), pin.version())) {
        live.put(pin, Boolean.TRUE);
        return ScreenVerdict.SERVE;
      }
      gone.put(pin, Boolean.TRUE);
    }
    return new ScreenVerdict.Drain(
        DELETED,
        "graph "
            + pin.graphId()
            + " version "
            + pin.version()
            + " no longer exists; work unit "
            + dispatch.getWorkUnitId()
            + " cannot complete");
  }
}
