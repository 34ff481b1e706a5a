package dev.protomolt.engine.graphs;

import static dev.protomolt.core.graph.SampleGraphs.linear;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.core.graph.FakeClock;
import dev.protomolt.core.graph.GraphAdminException;
import dev.protomolt.core.graph.SubscriptionLookup;
import dev.protomolt.proto.config.v1.DatasourceSubscription;
import java.time.Duration;
import java.time.Instant;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Intake's lookup over the real store: a database blip throws and is not remembered as "unbound". */
class SubscriptionLookupOnPostgresTest {

  @Test
  void aFailedLoadThrowsAndTheNextCallAsksTheDatabaseAgain() throws Exception {
    FlakyDataSource ds = new FlakyDataSource(EmbeddedDatabase.emptied());
    PostgresGraphStore store = new PostgresGraphStore(ds);
    store.create(linear("g", 0), OptionalLong.empty(), "ann", Instant.EPOCH);
    store.activate("g", "c1", 1, 0);
    SubscriptionLookup lookup =
        new SubscriptionLookup(
            store::subscriptions, new FakeClock(Instant.EPOCH), Duration.ofMinutes(1));

    ds.down = true;
    assertThatThrownBy(() -> lookup.forDatasource("ds-1"))
        .isInstanceOf(GraphAdminException.class)
        .hasMessageContaining("graph store unavailable");
    ds.down = false;
    assertThat(lookup.forDatasource("ds-1"))
        .extracting(DatasourceSubscription::getSubscriptionId)
        .containsExactly("g:1:ds-1");
  }
}
