package dev.protomolt.core.graph;

import dev.protomolt.proto.config.v1.DatasourceSubscription;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Which graphs a datasource feeds, cached briefly for intake. Only successful answers are cached:
 * a failed load throws to the caller and leaves nothing behind, because a cached empty list would
 * be indistinguishable from "no pipeline bound" and intake would ack the record as unbound.
 */
public final class SubscriptionLookup {

  private final Function<String, List<DatasourceSubscription>> source;
  private final InstantSource clock;
  private final Duration ttl;
  private final Map<String, Cached> cache = new ConcurrentHashMap<>();

  public SubscriptionLookup(
      Function<String, List<DatasourceSubscription>> source, InstantSource clock, Duration ttl) {
    this.source = source;
    this.clock = clock;
    this.ttl = ttl;
  }

  /** The subscriptions of a datasource; a load failure propagates and is not remembered. */
  public List<DatasourceSubscription> forDatasource(String datasourceId) {
    Instant now = clock.instant();
    Cached cached = cache.get(datasourceId);
    if (cached != null && now.isBefore(cached.expiresAt())) {
      return cached.subscriptions();
    }
    List<DatasourceSubscription> loaded = List.copyOf(source.apply(datasourceId));
    cache.put(datasourceId, new Cached(loaded, now.plus(ttl)));
    return loaded;
  }

  /** Drops every cached answer (on any ACTIVATED or DEACTIVATED event). */
  public void invalidateAll() {
    cache.clear();
  }

  private record Cached(List<DatasourceSubscription> subscriptions, Instant expiresAt) {}
}
