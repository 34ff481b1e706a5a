package dev.protomolt.gateway;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.regex.Pattern;

/**
 * How the accounts share one module service in a gateway task's buffer (decision 1658): each
 * account's weight (records per turn) and optional rate limit (records served per second by this
 * task for one module service). An account not named gets the {@code *} entry, else weight 1 and
 * no limit.
 *
 * <p>Written by the stack into {@code PROTOMOLT_GATEWAY_ACCOUNT_SHARES} as {@code
 * account=weight:4,rate:50;*=weight:1}: entries separated by {@code ;}, each an account id (or
 * {@code *}), {@code =}, and {@code weight:N} and/or {@code rate:N} separated by {@code ,}.
 *
 * @param byAccount the accounts named, each with its share
 * @param otherwise the share of every account not named
 */
public record AccountShares(Map<String, Share> byAccount, Share otherwise) {

  /** Most records one account may take per turn: a turn longer than this is a starvation. */
  public static final int MAX_WEIGHT = 1_000;

  /** Most records per second a limit may name: past this the limit limits nothing. */
  public static final int MAX_RATE = 100_000;

  /** The name of the entry every account not named gets. */
  public static final String EVERY_OTHER_ACCOUNT = "*";

  private static final Pattern ACCOUNT = Pattern.compile("[A-Za-z0-9._-]+");

  /**
   * One account's share.
   *
   * @param weight records served for it in one turn, before the next account's turn
   * @param recordsPerSecond most records served for it per second, per module service and task;
   *     empty for no limit. Its bucket holds one second's worth, so a quiet account may take that
   *     many at once.
   */
  public record Share(int weight, OptionalInt recordsPerSecond) {
    public static final Share EQUAL = new Share(1, OptionalInt.empty());

    public Share {
      Objects.requireNonNull(recordsPerSecond, "recordsPerSecond");
      if (weight < 1 || weight > MAX_WEIGHT) {
        throw new IllegalArgumentException(
            "weight must be between 1 and " + MAX_WEIGHT + ", got " + weight);
      }
      if (recordsPerSecond.isPresent()
          && (recordsPerSecond.getAsInt() < 1 || recordsPerSecond.getAsInt() > MAX_RATE)) {
        throw new IllegalArgumentException(
            "rate must be between 1 and " + MAX_RATE + ", got " + recordsPerSecond.getAsInt());
      }
    }
  }

  /** Every account weight 1 and unlimited: the turns of decision 1652. */
  public static final AccountShares EQUAL = new AccountShares(Map.of(), Share.EQUAL);

  public AccountShares {
    byAccount = Map.copyOf(byAccount);
    Objects.requireNonNull(otherwise, "otherwise");
  }

  /** The share {@code account} is served under. */
  public Share of(String account) {
    return byAccount.getOrDefault(account, otherwise);
  }

  /**
   * Parses {@code value} (blank: {@link #EQUAL}); every refusal names {@code key}, the entry and
   * the rule it breaks.
   */
  public static AccountShares parse(String key, String value) {
    if (value == null || value.isBlank()) {
      return EQUAL;
    }
    Map<String, Share> named = new LinkedHashMap<>();
    Share otherwise = Share.EQUAL;
    for (String raw : value.split(";", -1)) {
      String entry = raw.strip();
      int eq = entry.indexOf('=');
      if (eq < 0) {
        throw refused(key, entry, "each entry must be account=weight:N,rate:N");
      }
      String account = entry.substring(0, eq).strip();
      if (!account.equals(EVERY_OTHER_ACCOUNT) && !ACCOUNT.matcher(account).matches()) {
        throw refused(key, entry, "the account must be '*' or letters, digits, '.', '_' or '-'");
      }
      if (named.containsKey(account)
          || (account.equals(EVERY_OTHER_ACCOUNT) && otherwise != Share.EQUAL)) {
        throw refused(key, entry, "account " + account + " is named twice");
      }
      Share share = share(key, entry, entry.substring(eq + 1));
      if (account.equals(EVERY_OTHER_ACCOUNT)) {
        otherwise = share;
      } else {
        named.put(account, share);
      }
    }
    return new AccountShares(named, otherwise);
  }

  private static Share share(String key, String entry, String settings) {
    Integer weight = null;
    Integer rate = null;
    for (String raw : settings.split(",", -1)) {
      String setting = raw.strip();
      int colon = setting.indexOf(':');
      String name = colon < 0 ? setting : setting.substring(0, colon).strip();
      if (colon < 0 || !(name.equals("weight") || name.equals("rate"))) {
        throw refused(
            key, entry, "each setting must be weight:N or rate:N, got \"" + setting + "\"");
      }
      if ((name.equals("weight") ? weight : rate) != null) {
        throw refused(key, entry, name + " is given twice");
      }
      int max = name.equals("weight") ? MAX_WEIGHT : MAX_RATE;
      int n = whole(key, entry, name, setting.substring(colon + 1).strip(), max);
      if (name.equals("weight")) {
        weight = n;
      } else {
        rate = n;
      }
    }
    return new Share(
        weight == null ? 1 : weight, rate == null ? OptionalInt.empty() : OptionalInt.of(rate));
  }

  private static int whole(String key, String entry, String name, String text, int max) {
    int n;
    try {
      n = Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw refused(key, entry, name + " must be a whole number, got \"" + text + "\"");
    }
    if (n < 1 || n > max) {
      throw refused(key, entry, name + " must be between 1 and " + max + ", got " + n);
    }
    return n;
  }

  private static IllegalArgumentException refused(String key, String entry, String rule) {
    return new IllegalArgumentException(key + ": entry \"" + entry + "\": " + rule);
  }
}
