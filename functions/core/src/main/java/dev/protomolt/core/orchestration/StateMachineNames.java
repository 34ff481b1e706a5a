package dev.protomolt.core.orchestration;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Names Step Functions resources are given. State machine and execution names allow at most 80
 * characters of {@code [A-Za-z0-9_-]}; names are derived deterministically so that a repeated
 * deploy or a repeated notification asks for the same resource and converges on it.
 */
public final class StateMachineNames {

  /** The alias admission resolves; activation and rollback move it. */
  public static final String ACTIVE_ALIAS = "active";

  /**
   * Graph ids that would name one of the platform's own state machines ({@code
   * protomolt-<env>-replay}, decision 1700): activating such a graph would overwrite it.
   */
  public static final Set<String> RESERVED_GRAPH_IDS = Set.of("replay");

  static final int MAX_NAME = 80;
  private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_-]+");
  private static final Pattern ENVIRONMENT = Pattern.compile("[a-z0-9]{1,16}");

  private StateMachineNames() {}

  /**
   * {@code protomolt-<env>-<graph id>}. A graph id that is not made of {@code [A-Za-z0-9_-]}, or
   * that would overflow 80 characters, becomes its sanitized prefix, {@code -} and 10 hex digits
   * of its SHA-256, so two different ids never share a machine.
   */
  public static String machineName(String environment, String graphId) {
    if (environment == null || !ENVIRONMENT.matcher(environment).matches()) {
      throw new IllegalArgumentException(
          "environment must be 1-16 characters of [a-z0-9], was '" + environment + "'");
    }
    if (graphId == null || graphId.isBlank()) {
      throw new IllegalArgumentException("graph_id must not be blank");
    }
    String prefix = "protomolt-" + environment + "-";
    if (SAFE.matcher(graphId).matches() && prefix.length() + graphId.length() <= MAX_NAME) {
      return prefix + graphId;
    }
    String suffix = "-" + sha256Hex(graphId).substring(0, 10);
    String sanitized = graphId.replaceAll("[^A-Za-z0-9_-]", "_");
    int room = MAX_NAME - prefix.length() - suffix.length();
    return prefix + sanitized.substring(0, Math.min(room, sanitized.length())) + suffix;
  }

  /**
   * The admission execution name: lowercase hex SHA-256 (64 characters) of account, datasource,
   * document, graph and version, each length-prefixed so no two tuples collide by concatenation.
   */
  public static String admissionExecutionName(
      String accountId, String datasourceId, String docId, String graphId, long graphVersion) {
    return sha256Hex(framed(accountId, datasourceId, docId, graphId, Long.toString(graphVersion)));
  }

  /**
   * A fan-out child's execution name, {@code hash(parent work unit id, destination index)}: a
   * retried fan-out asks for the same names.
   */
  public static String childExecutionName(String parentWorkUnitId, int destinationIndex) {
    if (destinationIndex < 0) {
      throw new IllegalArgumentException("destination index must be >= 0, was " + destinationIndex);
    }
    return sha256Hex(framed(parentWorkUnitId, Integer.toString(destinationIndex)));
  }

  /** Lowercase hex SHA-256 of the length-prefixed parts. */
  public static String hashOf(String... parts) {
    return sha256Hex(framed(parts));
  }

  private static String framed(String... parts) {
    StringBuilder out = new StringBuilder();
    for (String part : parts) {
      if (part == null) {
        throw new IllegalArgumentException("a name part must not be null");
      }
      out.append(part.length()).append(':').append(part).append(';');
    }
    return out.toString();
  }

  static String sha256Hex(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }
}
