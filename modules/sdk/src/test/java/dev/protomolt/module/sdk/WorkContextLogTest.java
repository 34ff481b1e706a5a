package dev.protomolt.module.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.proto.module.v1.LogText;
import dev.protomolt.proto.module.v1.WorkUnit;
import org.junit.jupiter.api.Test;

/** The logger's pieces: contiguous, each at its offset from the unit's log_offset, none twice. */
class WorkContextLogTest {

  @Test
  void eachPieceStartsWhereThePreviousEndedFromTheUnitsLogOffset() {
    WorkContext work =
        WorkContext.forUnit(WorkUnit.newBuilder().setWorkUnitId("wu").setLogOffset(120).build());

    assertThat(work.takeUnsentLog()).isEqualTo(LogText.newBuilder().setOffset(120).build());
    work.log("opened file");
    work.log("3 pages");
    LogText first = work.takeUnsentLog();
    assertThat(first.getText()).isEqualTo("opened file\n3 pages\n");
    assertThat(first.getOffset()).isEqualTo(120);

    assertThat(work.takeUnsentLog().getText()).as("nothing new since").isEmpty();
    work.log("done");
    LogText second = work.takeUnsentLog();
    assertThat(second.getText()).isEqualTo("done\n");
    assertThat(second.getOffset()).isEqualTo(120 + first.getText().length());
    assertThat(work.logLines()).containsExactly("opened file", "3 pages", "done");
  }
}
