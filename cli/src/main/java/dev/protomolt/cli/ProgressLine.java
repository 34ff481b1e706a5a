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
    long now = nanoTime.getAsLong();
    if (terminal) {
      draw(done, now, false);
    } else if (done != lastPrinted && now - lastPrintedAt >= plainEvery.toNanos()) {
      print(done, now);
    }
  }

  /** Reports the final count and ends the line. */
  public void finish(long done) {
    long now = nanoTime.getAsLong();
    if (terminal) {
      draw(done, now, true);
    } else if (done != lastPrinted) {
      print(done, now);
    }
    out.flush();
  }

  private void draw(long done, long now, boolean last) {
    String line = bar.render(done, Duration.ofNanos(now - started));
    // Pad over a longer previous line so no stale characters remain after the carriage return.
    String padded =
        line.length() < drawnWidth ? line + " ".repeat(drawnWidth - line.length()) : line;
    drawnWidth = line.length();
    out.print("\r" + padded + (last ? System.lineSeparator() : ""));
    out.flush();
  }

  private void print(long done, long now) {
    out.println(bar.render(done, Duration.ofNanos(now - started)));
    out.flush();
    lastPrinted = done;
    lastPrintedAt = now;
  }
}
