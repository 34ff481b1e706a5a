package dev.protomolt.identity;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The accounts each operator principal may act on, from a setting {@code ARN=account|account;
 * ARN=*} (decision 1741): {@code *} is every account and the platform-wide doors that name none.
 * A principal named nowhere may do nothing, and an empty setting grants nobody. The gateway's
 * operator doors and the console API read the same syntax, so one operator holds the same grants
 * on both.
 */
public final class OperatorGrants {

  /** An operator allowed every account and the platform-wide doors. */
  public static final String ALL_ACCOUNTS = "*";

  private static final Pattern ACCOUNT_ID = Pattern.compile("[A-Za-z0-9._-]+");
  private static final Pattern ASSUMED_ROLE =
      Pattern.compile("arn:([a-z-]+):sts::(\\d{12}):assumed-role/([^/]+)/.+");
  private static final Pattern IAM =
      Pattern.compile("arn:([a-z-]+):iam::(\\d{12}):(role|user)/(?:.*/)?([^/]+)");

  private final Map<String, Set<String>> accountsByPrincipal;

  private OperatorGrants(Map<String, Set<String>> accountsByPrincipal) {
    this.accountsByPrincipal = accountsByPrincipal;
  }

  /** Nobody may act on anything. */
  public static OperatorGrants none() {
    return new OperatorGrants(Map.of());
  }

  /**
   * @param key the setting's name, for messages
   * @throws IllegalArgumentException naming the setting and the entry that breaks its syntax
   */
  public static OperatorGrants parse(String key, String value) {
    Map<String, Set<String>> accounts = new LinkedHashMap<>();
    for (Map.Entry<String, Set<String>> e : entries(key, value).entrySet()) {
      for (String account : e.getValue()) {
        if (!account.equals(ALL_ACCOUNTS) && !ACCOUNT_ID.matcher(account).matches()) {
          throw new IllegalArgumentException(
              key + ": account '" + account + "' must be '*' or letters, digits, '.', '_' or '-'");
        }
      }
      String principal;
      try {
        principal = principalOf(e.getKey());
      } catch (IllegalArgumentException bad) {
        throw new IllegalArgumentException(key + ": " + bad.getMessage(), bad);
      }
      accounts.computeIfAbsent(principal, k -> new LinkedHashSet<>()).addAll(e.getValue());
    }
    accounts.replaceAll((k, v) -> Set.copyOf(v));
    return new OperatorGrants(Map.copyOf(accounts));
  }

  /** Whether {@code principal} (as {@link #principalOf} names it) may act on {@code accountId}. */
  public boolean mayActOn(String principal, String accountId) {
    Set<String> accounts = accountsByPrincipal.getOrDefault(principal, Set.of());
    return accounts.contains(ALL_ACCOUNTS) || accounts.contains(accountId);
  }

  /** Whether {@code principal} is an operator of every account (and the platform-wide doors). */
  public boolean isPlatformOperator(String principal) {
    return accountsByPrincipal.getOrDefault(principal, Set.of()).contains(ALL_ACCOUNTS);
  }

  /** How many operator principals are configured. */
  public int size() {
    return accountsByPrincipal.size();
  }

  /**
   * The principal an ARN names, as the settings compare it: a role session becomes its role, and
   * a role or user ARN loses its path (names are unique in an account whatever the path, and STS's
   * assumed-role ARN carries none), so every session of a role is one principal.
   *
   * @throws IllegalArgumentException for anything but a role, a role session or a user ARN
   */
  public static String principalOf(String arn) {
    Matcher session = ASSUMED_ROLE.matcher(arn);
    if (session.matches()) {
      return "arn:" + session.group(1) + ":iam::" + session.group(2) + ":role/" + session.group(3);
    }
    Matcher iam = IAM.matcher(arn);
    if (iam.matches()) {
      return "arn:"
          + iam.group(1)
          + ":iam::"
          + iam.group(2)
          + ":"
          + iam.group(3)
          + "/"
          + iam.group(4);
    }
    throw new IllegalArgumentException(
        "'"
            + arn
            + "' is not an IAM role, role session or user ARN"
            + " (arn:aws:iam::<account>:role/<name>)");
  }

  /**
   * The entries of a {@code name=value|value;name=value} setting, names to their values in
   * order; blank entries are skipped.
   *
   * @throws IllegalArgumentException naming {@code key} and the entry that breaks the syntax
   */
  public static Map<String, Set<String>> entries(String key, String value) {
    Map<String, Set<String>> out = new LinkedHashMap<>();
    if (value == null || value.isBlank()) {
      return out;
    }
    for (String entry : value.split(";")) {
      if (entry.isBlank()) {
        continue;
      }
      int eq = entry.indexOf('=');
      if (eq <= 0 || eq == entry.length() - 1) {
        throw new IllegalArgumentException(
            key + ": each entry must be 'name=value|value', got '" + entry.strip() + "'");
      }
      Set<String> values = new LinkedHashSet<>();
      for (String v : entry.substring(eq + 1).split("\\|")) {
        if (v.isBlank()) {
          throw new IllegalArgumentException(
              key + ": entry '" + entry.strip() + "' has an empty value");
        }
        values.add(v.strip());
      }
      out.computeIfAbsent(entry.substring(0, eq).strip(), k -> new LinkedHashSet<>())
          .addAll(values);
    }
    return out;
  }
}
