package dev.protomolt.localstack.schedule;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.BitSet;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An EventBridge schedule expression, {@code rate(value unit)} or the six-field {@code cron(minutes
 * hours day-of-month month day-of-week year)} in UTC, able to say when it next fires. The {@code L},
 * {@code W} and {@code #} cron wildcards are refused when parsed rather than misread.
 */
public sealed interface ScheduleExpression {

  /** The first firing strictly after {@code after}; empty when there is none (a past year). */
  Optional<Instant> nextAfter(Instant after);

  /** Parses {@code expression}; the message names the rule it breaks. */
  static ScheduleExpression parse(String expression) {
    Matcher rate = Rate.PATTERN.matcher(expression == null ? "" : expression.strip());
    if (rate.matches()) {
      long value = Long.parseLong(rate.group(1));
      String unit = rate.group(2);
      if (value < 1 || (value == 1) != !unit.endsWith("s")) {
        throw new IllegalArgumentException(
            "schedule expression '"
                + expression
                + "': a rate is 'rate(1 minute)' or 'rate(<n> minutes)', hours and days likewise");
      }
      ChronoUnit u =
          unit.startsWith("minute")
              ? ChronoUnit.MINUTES
              : unit.startsWith("hour") ? ChronoUnit.HOURS : ChronoUnit.DAYS;
      return new Rate(Duration.of(value, u));
    }
    Matcher cron = Cron.PATTERN.matcher(expression == null ? "" : expression.strip());
    if (cron.matches()) {
      return Cron.of(cron.group(1).trim().split("\\s+"), expression);
    }
    throw new IllegalArgumentException(
        "schedule expression '" + expression + "': must be rate(...) or cron(...)");
  }

  /** Fires every {@code period}, counted from when the schedule was created. */
  record Rate(Duration period) implements ScheduleExpression {

    static final Pattern PATTERN =
        Pattern.compile("rate\\((\\d+) (minute|minutes|hour|hours|day|days)\\)");

    @Override
    public Optional<Instant> nextAfter(Instant after) {
      return Optional.of(after.plus(period));
    }
  }

  /** Fires at every UTC minute its six fields match. */
  record Cron(
      BitSet minutes,
      BitSet hours,
      BitSet daysOfMonth,
      BitSet months,
      BitSet daysOfWeek,
      BitSet years,
      boolean anyDayOfMonth,
      boolean anyDayOfWeek)
      implements ScheduleExpression {

    static final Pattern PATTERN = Pattern.compile("cron\\((.+)\\)");
    private static final String[] MONTHS = {
      "JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"
    };
    private static final String[] DAYS = {"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"};

    static Cron of(String[] f, String expression) {
      if (f.length != 6) {
        throw new IllegalArgumentException(
            "schedule expression '"
                + expression
                + "': cron needs six fields (minutes hours day-of-month month day-of-week year)");
      }
      if (!f[2].equals("?") && !f[4].equals("?")) {
        throw new IllegalArgumentException(
            "schedule expression '"
                + expression
                + "': one of day-of-month and day-of-week must be '?'");
      }
      return new Cron(
          field(f[0], 0, 59, null, expression),
          field(f[1], 0, 23, null, expression),
          field(f[2], 1, 31, null, expression),
          field(f[3], 1, 12, MONTHS, expression),
          field(f[4], 1, 7, DAYS, expression),
          field(f[5], 1970, 2199, null, expression),
          f[2].equals("?") || f[2].equals("*"),
          f[4].equals("?") || f[4].equals("*"));
    }

    @Override
    public Optional<Instant> nextAfter(Instant after) {
      ZonedDateTime start =
          after.atZone(ZoneOffset.UTC).truncatedTo(ChronoUnit.MINUTES).plusMinutes(1);
      LocalDate day = start.toLocalDate();
      // Four years cover every leap-day schedule; beyond that a cron never fires again.
      for (int d = 0; d < 366 * 4 + 1; d++, day = day.plusDays(1)) {
        if (!dayMatches(day)) {
          continue;
        }
        for (int h = hours.nextSetBit(0); h >= 0; h = hours.nextSetBit(h + 1)) {
          for (int m = minutes.nextSetBit(0); m >= 0; m = minutes.nextSetBit(m + 1)) {
            ZonedDateTime at = day.atTime(h, m).atZone(ZoneOffset.UTC);
            if (!at.isBefore(start)) {
              return Optional.of(at.toInstant());
            }
          }
        }
      }
      return Optional.empty();
    }

    private boolean dayMatches(LocalDate day) {
      if (!years.get(day.getYear()) || !months.get(day.getMonthValue())) {
        return false;
      }
      // AWS numbers days of week 1 (Sunday) to 7 (Saturday).
      int dow = day.getDayOfWeek() == DayOfWeek.SUNDAY ? 1 : day.getDayOfWeek().getValue() + 1;
      boolean domOk = daysOfMonth.get(day.getDayOfMonth());
      boolean dowOk = daysOfWeek.get(dow);
      if (anyDayOfMonth && anyDayOfWeek) {
        return true;
      }
      return anyDayOfMonth ? dowOk : domOk;
    }

    private static BitSet field(String text, int min, int max, String[] names, String expression) {
      BitSet out = new BitSet(max + 1);
      for (String part : text.split(",")) {
        String p = part.toUpperCase(Locale.ROOT);
        if (p.contains("L") && names == null || p.contains("W") || p.contains("#")) {
          throw new IllegalArgumentException(
              "schedule expression '"
                  + expression
                  + "': the L, W and # wildcards are not supported locally ('"
                  + part
                  + "')");
        }
        int step = 1;
        int slash = p.indexOf('/');
        if (slash >= 0) {
          step = number(p.substring(slash + 1), names, min, expression);
          p = p.substring(0, slash);
        }
        int from;
        int to;
        if (p.equals("*") || p.equals("?")) {
          from = min;
          to = max;
        } else if (p.contains("-")) {
          String[] range = p.split("-", 2);
          from = number(range[0], names, min, expression);
          to = number(range[1], names, min, expression);
        } else {
          from = number(p, names, min, expression);
          to = slash >= 0 ? max : from;
        }
        if (from < min || to > max || from > to || step < 1) {
          throw new IllegalArgumentException(
              "schedule expression '"
                  + expression
                  + "': '"
                  + part
                  + "' is outside "
                  + min
                  + "-"
                  + max);
        }
        for (int v = from; v <= to; v += step) {
          out.set(v);
        }
      }
      return out;
    }

    private static int number(String s, String[] names, int min, String expression) {
      if (names != null) {
        for (int i = 0; i < names.length; i++) {
          if (names[i].equals(s)) {
            return i + min;
          }
        }
      }
      try {
        return Integer.parseInt(s);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "schedule expression '" + expression + "': '" + s + "' is not a number", e);
      }
    }
  }
}
