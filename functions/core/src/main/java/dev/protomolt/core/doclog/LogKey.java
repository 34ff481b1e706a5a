package dev.protomolt.core.doclog;

/**
 * Where a log document lives: a {@code collection} and a {@code path} inside it. Both become parts
 * of object keys and signed request paths, so they are held to characters SigV4 never
 * percent-encodes ({@code A-Z a-z 0-9 - _ . ~}) and {@code /} between non-empty segments, with no
 * {@code .} or {@code ..} segment that a store might resolve to another document.
 */
public record LogKey(String collection, String path) {

  /** Where work-unit logs and execution transcripts sit inside their collection. */
  public static final String WORK_UNIT_LOGS = "logs/work-units/";

  public static final String EXECUTION_TRANSCRIPTS = "logs/executions/";

  /**
   * The collection of logs whose account cannot name one (blank or not key-safe), as the gateway's
   * work-unit logs and the hops' transcripts file them.
   */
  public static final String UNOWNED = "_platform";

  static final int MAX_COLLECTION_LENGTH = 255;
  static final int MAX_PATH_LENGTH = 1024;

  public LogKey {
    checkSegments("collection", collection, MAX_COLLECTION_LENGTH);
    checkSegments("path", path, MAX_PATH_LENGTH);
  }

  /** The collection an account's logs live in: the account id, or {@link #UNOWNED}. */
  public static String accountCollection(String accountId) {
    try {
      checkSegments("collection", accountId, MAX_COLLECTION_LENGTH);
      return accountId;
    } catch (IllegalArgumentException e) {
      return UNOWNED;
    }
  }

  /** The module log of one work unit: {@code logs/work-units/<workUnitId>}. */
  public static LogKey workUnitLog(String collection, String workUnitId) {
    checkSingleSegment("workUnitId", workUnitId);
    return new LogKey(collection, WORK_UNIT_LOGS + workUnitId);
  }

  /** The transcript of one Step Functions execution: {@code logs/executions/<executionName>}. */
  public static LogKey executionTranscript(String collection, String executionName) {
    checkSingleSegment("executionName", executionName);
    return new LogKey(collection, EXECUTION_TRANSCRIPTS + executionName);
  }

  @Override
  public String toString() {
    return collection + ":" + path;
  }

  private static void checkSingleSegment(String field, String value) {
    checkSegments(field, value, MAX_PATH_LENGTH);
    if (value.indexOf('/') >= 0) {
      throw new IllegalArgumentException(
          field + ": must be a single path segment without '/' (got \"" + value + "\")");
    }
  }

  private static void checkSegments(String field, String value, int maxLength) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(field + ": must not be blank");
    }
    if (value.length() > maxLength) {
      throw new IllegalArgumentException(
          field + ": must be at most " + maxLength + " characters (got " + value.length() + ")");
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (!isSigV4Safe(c)) {
        throw new IllegalArgumentException(
            field
                + ": must use only A-Z a-z 0-9 - _ . ~ and '/' (SigV4-safe); '"
                + describe(value, i)
                + "' at index "
                + i
                + " is not allowed (got \""
                + value
                + "\")");
      }
    }
    for (String segment : value.split("/", -1)) {
      if (segment.isEmpty()) {
        throw new IllegalArgumentException(
            field + ": must not start or end with '/' or contain '//' (got \"" + value + "\")");
      }
      if (segment.equals(".") || segment.equals("..")) {
        throw new IllegalArgumentException(
            field + ": must not contain a '.' or '..' segment (got \"" + value + "\")");
      }
    }
  }

  private static boolean isSigV4Safe(char c) {
    return (c >= 'A' && c <= 'Z')
        || (c >= 'a' && c <= 'z')
        || (c >= '0' && c <= '9')
        || c == '-'
        || c == '_'
        || c == '.'
        || c == '~'
        || c == '/';
  }

  private static String describe(String value, int index) {
    int cp = value.codePointAt(index);
    return Character.isISOControl(cp) || Character.isWhitespace(cp)
        ? String.format("U+%04X", cp)
        : new String(Character.toChars(cp));
  }
}
