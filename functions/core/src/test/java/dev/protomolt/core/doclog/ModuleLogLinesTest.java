package dev.protomolt.core.doclog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.protomolt.core.doclog.ModuleLogLines.Line;
import dev.protomolt.core.doclog.ModuleLogLines.Source;
import org.junit.jupiter.api.Test;

class ModuleLogLinesTest {

  @Test
  void stampedPlatformAndBareLinesKeepWhatTheySay() {
    String text =
        "2026-03-04T05:06:07.089Z INFO parsed TEXT: 42 characters\n"
            + "2026-03-04T05:06:08Z WARN no language found\n"
            + "an older module's bare line\n"
            + "# end of attempt 1 of node parse on parser-1: CONTINUE\n";

    assertThat(ModuleLogLines.of(text))
        .containsExactly(
            new Line(
                0, "2026-03-04T05:06:07.089Z", "INFO", "parsed TEXT: 42 characters", Source.MODULE),
            new Line(1, "2026-03-04T05:06:08Z", "WARN", "no language found", Source.MODULE),
            new Line(2, "", "", "an older module's bare line", Source.MODULE),
            new Line(
                3,
                "",
                "",
                "# end of attempt 1 of node parse on parser-1: CONTINUE",
                Source.PLATFORM));
  }

  @Test
  void aLevelThatIsNoLevelIsTextAndAnUnendedLastLineCounts() {
    assertThat(ModuleLogLines.of("2026-03-04T05:06:07Z LOUD hello\nstill writing"))
        .extracting(Line::level, Line::text)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("", "2026-03-04T05:06:07Z LOUD hello"),
            org.assertj.core.groups.Tuple.tuple("", "still writing"));
    assertThat(ModuleLogLines.of("")).isEmpty();
  }
}
