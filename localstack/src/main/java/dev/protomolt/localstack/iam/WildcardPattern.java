package dev.protomolt.localstack.iam;

import java.util.Locale;

/**
 * The two wildcard dialects of IAM. Actions match case-insensitively, {@code *} spanning any
 * characters and {@code ?} one. Resource ARNs match case-sensitively segment by segment (the parts
 * between colons): {@code *} and {@code ?} stay inside their segment, except a {@code *} that ends
 * its segment, which may also cover the colons after it, as the IAM reference for the Resource
 * element describes (so {@code ...:stateMachine:pm-*} covers the version ARN {@code
 * ...:stateMachine:pm-a:3}, and {@code arn:aws:s3:::bucket/*} every key, {@code /} included).
 */
final class WildcardPattern {

  private WildcardPattern() {}

  static boolean matchesAction(String pattern, String action) {
    return glob(pattern.toLowerCase(Locale.ROOT), 0, action.toLowerCase(Locale.ROOT), 0, false);
  }

  static boolean matchesArn(String pattern, String arn) {
    if (pattern.equals("*")) {
      return true;
    }
    return glob(pattern, 0, arn, 0, true);
  }

  /** Plain {@code StringLike} matching: case-sensitive, wildcards span everything. */
  static boolean matchesString(String pattern, String value) {
    return glob(pattern, 0, value, 0, false);
  }

  /**
   * Backtracking glob match. Policy patterns and ARNs are short, so the worst case (many stars)
   * stays small; a memo is not worth its allocation.
   */
  private static boolean glob(String p, int pi, String s, int si, boolean segmented) {
    while (pi < p.length()) {
      char c = p.charAt(pi);
      if (c == '*') {
        boolean endsSegment = pi + 1 == p.length() || p.charAt(pi + 1) == ':';
        boolean crossesColons = !segmented || endsSegment;
        for (int end = si; end <= s.length(); end++) {
          if (glob(p, pi + 1, s, end, segmented)) {
            return true;
          }
          if (end < s.length() && s.charAt(end) == ':' && !crossesColons) {
            return false;
          }
        }
        return false;
      }
      if (si >= s.length()) {
        return false;
      }
      char actual = s.charAt(si);
      if (c == '?') {
        if (segmented && actual == ':') {
          return false;
        }
      } else if (c != actual) {
        return false;
      }
      pi++;
      si++;
    }
    return si == s.length();
  }
}
