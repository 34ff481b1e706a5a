package dev.protomolt.cli;

import java.time.Duration;
import java.util.Locale;

/**
 * One line of progress: label, bar, count, percentage, rate and elapsed time, e.g. {@code uploading
 * [##########----------]   5/10  50%  2.5/s  0:02}. Pure: the caller supplies the elapsed time.
 *
 * @param label what is progressing ("uploading", "processing")
 * @param total how many items make 100 %; at least 1
 * @param width the bar's width in characters between the brackets
 */
public record ProgressBar(String label, long total, int width) {

  public ProgressBar {
    if (total < 1) {
      throw new IllegalArgumentException("total: must be at least 1, got " + total);
    }
    if (width < 1) {
      throw new IllegalArgumentException("width: must be at least 1, got " + width);
    }
  }

  /** The line for {@code done} of {@link #total} items after {@code elapsed}. */
  public String render(long done, Duration elapsed) {
    long clamped = Math.max(0, Math.min(done, total));
    int filled = (int) (clamped * width / total);
    int percent = (int) (clamped * 100 / total);
    String count = Long.toString(total);
    double seconds = elapsed.toNanos() / 1e9;
    String rate = seconds <= 0 ? "-" : String.format(Locale.ROOT, "%.1f", clamped / seconds);
    long wholeSeconds = elapsed.toSeconds();
    return String.format(
        Locale.ROOT,
        "%s [%s%s] %" + count.length() + "d/%s %3d%%  %s/s  %d:%02d",
        label,
        "#".repeat(filled),
        "-".repeat(width - filled),
        clamped,
        count,
        percent,
        rate,
        wholeSeconds / 60,
        wholeSeconds % 60);
  }
}
