package dev.protomolt.localstack.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** When EventBridge schedule expressions fire, and the ones the local scheduler refuses. */
class ScheduleExpressionTest {

  private static final Instant MONDAY_NOON = Instant.parse("2026-11-30T12:00:00Z");

  @Test
  void aRateFiresOnePeriodLater() {
    assertThat(ScheduleExpression.parse("rate(6 hours)").nextAfter(MONDAY_NOON))
        .contains(MONDAY_NOON.plus(Duration.ofHours(6)));
    assertThat(ScheduleExpression.parse("rate(1 minute)").nextAfter(MONDAY_NOON))
        .contains(MONDAY_NOON.plusSeconds(60));
  }

  @Test
  void aCronFiresAtTheNextMatchingUtcMinute() {
    assertThat(ScheduleExpression.parse("cron(0 3 * * ? *)").nextAfter(MONDAY_NOON))
        .contains(Instant.parse("2026-12-01T03:00:00Z"));
    // Every 15 minutes during working hours on weekdays (AWS numbers Sunday 1).
    assertThat(ScheduleExpression.parse("cron(0/15 9-17 ? * MON-FRI *)").nextAfter(MONDAY_NOON))
        .contains(Instant.parse("2026-11-30T12:15:00Z"));
    assertThat(
            ScheduleExpression.parse("cron(0/15 9-17 ? * 2-6 *)")
                .nextAfter(Instant.parse("2026-12-04T17:45:00Z")))
        .contains(Instant.parse("2026-12-07T09:00:00Z"));
    assertThat(ScheduleExpression.parse("cron(30 1 15 JAN,JUL ? *)").nextAfter(MONDAY_NOON))
        .contains(Instant.parse("2027-01-15T01:30:00Z"));
    assertThat(ScheduleExpression.parse("cron(0 0 1 1 ? 2020)").nextAfter(MONDAY_NOON)).isEmpty();
  }

  @Test
  void malformedExpressionsAreRefusedWithTheRule() {
    assertThatThrownBy(() -> ScheduleExpression.parse("hourly"))
        .hasMessageContaining("must be rate(...) or cron(...)");
    assertThatThrownBy(() -> ScheduleExpression.parse("rate(1 hours)"))
        .hasMessageContaining("'rate(1 minute)' or 'rate(<n> minutes)'");
    assertThatThrownBy(() -> ScheduleExpression.parse("rate(5 hour)"))
        .hasMessageContaining("'rate(1 minute)' or 'rate(<n> minutes)'");
    assertThatThrownBy(() -> ScheduleExpression.parse("cron(0 3 * *)"))
        .hasMessageContaining("cron needs six fields");
    assertThatThrownBy(() -> ScheduleExpression.parse("cron(0 3 1 * MON *)"))
        .hasMessageContaining("one of day-of-month and day-of-week must be '?'");
    assertThatThrownBy(() -> ScheduleExpression.parse("cron(0 3 L * ? *)"))
        .hasMessageContaining("the L, W and # wildcards are not supported locally");
    assertThatThrownBy(() -> ScheduleExpression.parse("cron(61 3 * * ? *)"))
        .hasMessageContaining("'61' is outside 0-59");
  }
}
