package dev.protomolt.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The progress bar's rendering and the two ways a progress line is shown, on a fake clock. */
class ProgressBarTest {

  @Test
  void rendersLabelBarCountPercentageRateAndElapsedTime() {
    ProgressBar bar = new ProgressBar("uploading", 10, 20);
    assertThat(bar.render(0, Duration.ZERO))
        .isEqualTo("uploading [--------------------]  0/10   0%  -/s  0:00");
    assertThat(bar.render(5, Duration.ofSeconds(2)))
        .isEqualTo("uploading [##########----------]  5/10  50%  2.5/s  0:02");
    assertThat(bar.render(10, Duration.ofSeconds(75)))
        .isEqualTo("uploading [####################] 10/10 100%  0.1/s  1:15");
  }

  @Test
  void countsOutsideTheRangeAreClampedAndBadShapesRefused() {
    ProgressBar bar = new ProgressBar("x", 3, 3);
    assertThat(bar.render(7, Duration.ofSeconds(1))).startsWith("x [###] 3/3 100%");
    assertThat(bar.render(-1, Duration.ofSeconds(1))).startsWith("x [---] 0/3   0%");
    assertThatThrownBy(() -> new ProgressBar("x", 0, 3))
        .hasMessage("total: must be at least 1, got 0");
    assertThatThrownBy(() -> new ProgressBar("x", 3, 0))
        .hasMessage("width: must be at least 1, got 0");
  }

  @Test
  void onATerminalTheLineIsRedrawnInPlaceAndEndedOnce() {
    StringWriter text = new StringWriter();
    AtomicLong now = new AtomicLong();
    ProgressLine line =
        new ProgressLine(
            new PrintWriter(text),
            new ProgressBar("up", 2, 2),
            true,
            Duration.ofSeconds(5),
            now::get);
    line.update(1);
    now.addAndGet(Duration.ofSeconds(1).toNanos());
    line.finish(2);
    assertThat(text.toString())
        .isEqualTo(
            "\rup [#-] 1/2  50%  -/s  0:00"
                + "\rup [##] 2/2 100%  2.0/s  0:01"
                + System.lineSeparator());
  }

  @Test
  void elsewhereItPrintsPlainLinesAtMostEveryPeriodAndAlwaysTheLastCount() {
    StringWriter text = new StringWriter();
    AtomicLong now = new AtomicLong();
    ProgressLine line =
        new ProgressLine(
            new PrintWriter(text),
            new ProgressBar("up", 4, 4),
            false,
            Duration.ofSeconds(5),
            now::get);
    line.update(1); // too soon: nothing
    now.addAndGet(Duration.ofSeconds(5).toNanos());
    line.update(2); // a period passed: printed
    now.addAndGet(Duration.ofSeconds(1).toNanos());
    line.update(3); // too soon again
    line.finish(4); // the final count always
    assertThat(text.toString().lines())
        .containsExactly("up [##--] 2/4  50%  0.4/s  0:05", "up [####] 4/4 100%  0.7/s  0:06");
    assertThat(text.toString()).doesNotContain("\r");
  }

  @Test
  void aFinalCountAlreadyPrintedIsNotRepeated() {
    StringWriter text = new StringWriter();
    AtomicLong now = new AtomicLong();
    ProgressLine line =
        new ProgressLine(
            new PrintWriter(text), new ProgressBar("up", 1, 1), false, Duration.ZERO, now::get);
    line.update(1);
    line.finish(1);
    assertThat(text.toString().lines()).hasSize(1);
  }

  @Test
  void aChangedQueueNoteIsPrintedLikeAChangedCountAndEndsTheLastLine() {
    StringWriter text = new StringWriter();
    AtomicLong now = new AtomicLong();
    ProgressLine line =
        new ProgressLine(
            new PrintWriter(text), new ProgressBar("up", 4, 4), false, Duration.ZERO, now::get);
    line.update(0, IngestCommand.queuedNote(4));
    line.update(0, IngestCommand.queuedNote(4)); // nothing new: not repeated
    line.update(0, IngestCommand.queuedNote(3)); // the queue moved, the count did not
    line.finish(1, IngestCommand.queuedNote(0));
    assertThat(text.toString().lines())
        .containsExactly(
            "up [----] 0/4   0%  -/s  0:00  · 4 queued (waiting for a module)",
            "up [----] 0/4   0%  -/s  0:00  · 3 queued (waiting for a module)",
            "up [#---] 1/4  25%  -/s  0:00");
  }

  @Test
  void theReplaysNoteSaysHowManyFinishedAndAddsTheQueuedOnlyWhenSomeWait() {
    assertThat(ReplayCommand.processedNote(3, 0)).isEqualTo("· 3 finished");
    assertThat(ReplayCommand.processedNote(0, 2))
        .isEqualTo("· 0 finished · 2 queued (waiting for a module)");
  }
}
