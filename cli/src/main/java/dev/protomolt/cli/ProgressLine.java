package dev.protomolt.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Shows a {@link ProgressBar} on a terminal by redrawing one line in place; anywhere else (a pipe,
 * a log file, CI) it prints a plain line when the count changed and at least {@code plainEvery} has
 * passed, and always the final count, so logs stay short and readable.
 */
public final class ProgressLine {

  private final PrintWriter out;
  private final ProgressBar bar;
  private final boolean terminal;
  private final Duration plainEvery;
  private final LongSupplier nanoTime;
  private final long started;
  private long lastPrintedAt;
  private long lastPrinted = -1;
  private String lastNote = "";
  private int drawnWidth;

  /**
   * @param nanoTime a monotonic clock in nanoseconds ({@code System::nanoTime}; tests pass a fake)
   */
  public ProgressLine(
      PrintWriter out,
      ProgressBar bar,
      boolean terminal,
      Duration plainEvery,
      LongSupplier nanoTime) {
    this.out = out;
    this.bar = bar;
    this.terminal = terminal;
    this.plainEvery = plainEvery;
    this.nanoTime = nanoTime;
    this.started = nanoTime.getAsLong();
    this.lastPrintedAt = started;
  }

  /** A line for the command's standard output, redrawn in place when that is a terminal. */
  static ProgressLine onConsole(PrintWriter out, String label, long total) {
    var console = System.console();
    return new ProgressLine(
        out,
        new ProgressBar(label, Math.max(1, total), 30),
        console != null && console.isTerminal(),
        Duration.ofSeconds(5),
        System::nanoTime);
  }

  /** Reports {@code done} items so far. */
  public void update(long done) {
    update(done, "");
  }

  /**
   * Reports {@code done} items so far with a note after the bar (such as how many wait in a
   * queue); a changed note is news like a changed count.
   */
  public void update(long done, String note) {
    long now = nanoTime.getAsLong();
    if (terminal) {
      draw(done, note, now, false);
    } else if ((done != lastPrinted || !note.equals(lastNote))
        && now - lastPrintedAt >= plainEvery.toNanos()) {
      print(done, note, now);
    }
  }

  /** Reports the final count and ends the line. */
  public void finish(long done) {
    finish(done, "");
  }

  /** Reports the final count with its note and ends the line. */
  public void finish(long done, String note) {
    long now = nanoTime.getAsLong();
    if (terminal) {
      draw(done, note, now, true);
    } else if (done != lastPrinted || !note.equals(lastNote)) {
      print(done, note, now);
    }
    out.flush();
  }

  private String render(long done, String note, long now) {
    String line = bar.render(done, Duration.ofNanos(now - started));
    return note.isEmpty() ? line : line + "  " + note;
  }

  private void draw(long done, String note, long now, boolean last) {
    String line = render(done, note, now);
    // Pad over a longer previous line so no stale characters remain after the carriage return.
    String padded =
        line.length() < drawnWidth ? line + " ".repeat(drawnWidth - line.length()) : line;
    drawnWidth = line.length();
    out.print("\r" + padded + (last ? System.lineSeparator() : ""));
    out.flush();
  }

  private void print(long done, String note, long now) {
    out.println(render(done, note, now));
    out.flush();
    lastPrinted = done;
    lastNote = note;
    lastPrintedAt = now;
  }
}
