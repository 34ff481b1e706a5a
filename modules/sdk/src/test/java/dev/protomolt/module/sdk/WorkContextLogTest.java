package dev.protomolt.module.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.proto.module.v1.LogText;
import dev.protomolt.proto.module.v1.WorkUnit;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The logger's pieces: contiguous, each at its offset from the unit's log_offset, none twice, each
 * line stamped with its instant and level.
 */
class WorkContextLogTest {

  static final Instant AT = Instant.parse("2026-03-04T05:06:07.089Z");

  @Test
  void eachPieceStartsWhereThePreviousEndedFromTheUnitsLogOffset() {
    WorkContext work =
        WorkContext.forUnit(
            WorkUnit.newBuilder().setWorkUnitId("wu").setLogOffset(120).build(), () -> AT);

    assertThat(work.takeUnsentLog()).isEqualTo(LogText.newBuilder().setOffset(120).build());
    work.log("opened file");
    work.log(WorkContext.LogLevel.WARN, "3 pages");
    LogText first = work.takeUnsentLog();
    assertThat(first.getText())
        .isEqualTo(
            "2026-03-04T05:06:07.089Z INFO opened file\n2026-03-04T05:06:07.089Z WARN 3 pages\n");
    assertThat(first.getOffset()).isEqualTo(120);

    assertThat(work.takeUnsentLog().getText()).as("nothing new since").isEmpty();
    work.log(WorkContext.LogLevel.ERROR, "done");
    LogText second = work.takeUnsentLog();
    assertThat(second.getText()).isEqualTo("2026-03-04T05:06:07.089Z ERROR done\n");
    assertThat(second.getOffset()).isEqualTo(120 + first.getText().length());
    assertThat(work.logLines()).containsExactly("opened file", "3 pages", "done");
  }

  @Test
  void aLineWithNewlinesStaysOneLogLine() {
    WorkContext work =
        WorkContext.forUnit(WorkUnit.newBuilder().setWorkUnitId("wu").build(), () -> AT);
    work.log("first\r\nsecond\nthird");
    assertThat(work.takeUnsentLog().getText())
        .isEqualTo("2026-03-04T05:06:07.089Z INFO first\\nsecond\\nthird\n");
  }
}
