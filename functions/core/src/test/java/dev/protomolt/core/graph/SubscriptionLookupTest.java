package dev.protomolt.core.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.protomolt.proto.config.v1.DatasourceSubscription;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class SubscriptionLookupTest {

  private final FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final Deque<Supplier<List<DatasourceSubscription>>> answers = new ArrayDeque<>();
  private int calls;
  private final SubscriptionLookup lookup =
      new SubscriptionLookup(
          ds -> {
            calls++;
            return answers.pop().get();
          },
          clock,
          Duration.ofSeconds(30));

  private static final DatasourceSubscription SUB =
      DatasourceSubscription.newBuilder().setSubscriptionId("g:1:ds").build();

  @Test
  void aFailureThrowsAndIsNeverCached() {
    answers.add(
        () -> {
          throw new IllegalStateException("connection refused");
        });
    answers.add(() -> List.of(SUB));
    assertThatThrownBy(() -> lookup.forDatasource("ds")).hasMessage("connection refused");
    assertThat(lookup.forDatasource("ds")).containsExactly(SUB);
    assertThat(calls).isEqualTo(2);
  }

  @Test
  void successesAreCachedUntilTheirTtlOrAnInvalidation() {
    answers.add(() -> List.of(SUB));
    answers.add(List::of);
    answers.add(() -> List.of(SUB));
    assertThat(lookup.forDatasource("ds")).containsExactly(SUB);
    clock.advance(Duration.ofSeconds(29));
    assertThat(lookup.forDatasource("ds")).containsExactly(SUB);
    assertThat(calls).isEqualTo(1);
    clock.advance(Duration.ofSeconds(1));
    assertThat(lookup.forDatasource("ds")).isEmpty();
    lookup.invalidateAll();
    assertThat(lookup.forDatasource("ds")).containsExactly(SUB);
    assertThat(calls).isEqualTo(3);
  }
}
