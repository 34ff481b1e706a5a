package dev.protomolt.module.samples.sink;

import java.time.Clock;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * ULIDs (26 Crockford base-32 characters: a 48-bit millisecond timestamp, then 80 random bits), so
 * receipt attempt ids sort in time order as text. Ids made within one millisecond, or while the
 * clock steps backwards, increment the previous id instead of drawing new randomness, which keeps
 * them strictly increasing within this generator.
 */
public final class UlidGenerator {

  private static final char[] ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ".toCharArray();
  private static final long MAX_TIMESTAMP = (1L << 48) - 1;

  private final Clock clock;
  private final RandomGenerator random;
  private long lastMillis = -1;

  /** The upper 16 random bits (kept in the low bits of this field) and the lower 64. */
  private long randomHigh;

  private long randomLow;

  public UlidGenerator(Clock clock, RandomGenerator random) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.random = Objects.requireNonNull(random, "random");
  }

  public synchronized String next() {
    long millis = clock.millis();
    if (millis < 0 || millis > MAX_TIMESTAMP) {
      throw new IllegalStateException(
          "a ULID timestamp must fit in 48 bits, got " + millis + " ms");
    }
    if (millis > lastMillis) {
      lastMillis = millis;
      randomHigh = random.nextLong() & 0xFFFFL;
      randomLow = random.nextLong();
    } else {
      randomLow++;
      if (randomLow == 0) {
        randomHigh++;
        if (randomHigh > 0xFFFFL) {
          throw new IllegalStateException(
              "ULID randomness exhausted within millisecond " + lastMillis);
        }
      }
    }
    long hi = (lastMillis << 16) | randomHigh;
    return encode(hi, randomLow);
  }

  /** The millisecond timestamp encoded in a ULID's first ten characters. */
  public static long timestampOf(String ulid) {
    if (ulid.length() != 26) {
      throw new IllegalArgumentException("a ULID has 26 characters, got " + ulid.length());
    }
    long millis = 0;
    for (int i = 0; i < 10; i++) {
      int value = new String(ALPHABET).indexOf(ulid.charAt(i));
      if (value < 0) {
        throw new IllegalArgumentException(
            "character " + i + " of \"" + ulid + "\" is not Crockford base-32");
      }
      millis = (millis << 5) | value;
    }
    return millis;
  }

  /** 128 bits as 26 characters of 5 bits each, most significant first (2 leading zero bits). */
  static String encode(long hi, long lo) {
    char[] out = new char[26];
    for (int position = 0; position < 26; position++) {
      int shift = (25 - position) * 5;
      long bits;
      if (shift >= 64) {
        bits = hi >>> (shift - 64);
      } else if (shift > 59) {
        bits = (lo >>> shift) | (hi << (64 - shift));
      } else {
        bits = lo >>> shift;
      }
      out[position] = ALPHABET[(int) (bits & 31)];
    }
    return new String(out);
  }
}
