package dev.protomolt.cdk;

import java.util.Arrays;
import java.util.Optional;

/**
 * The Lambda functions of one environment. All run the same Quarkus zip; the named handler inside
 * it is chosen by {@link #handlerName()}, passed to each function as {@code QUARKUS_LAMBDA_HANDLER}
 * (Quarkus' {@code quarkus.lambda.handler} setting), so adding a function never means a new build.
 */
public enum PlatformFunction {
  GRAPH_ADMIN("graph-admin"),
  INTAKE("intake"),
  PREPARE("prepare"),
  DISPATCH("dispatch"),
  COMPLETE("complete"),
  DLQ("dlq"),
  PURGE("purge"),
  RECLAIM("reclaim"),
  INDEXING_LEDGER("indexing-ledger"),
  SETTLEMENT("settlement"),
  ACCOUNT_EVENTS("account-events"),
  RECONCILER("reconciler"),
  RETENTION("retention"),
  // The replay state machine's two steps (decision 1700).
  REPLAY_VALIDATE("replay-validate"),
  REPLAY_PAGE("replay-page"),
  // Invoked by operators (protomolt dlq) to list, show and reprocess dead letters: decision 1721.
  DLQ_ADMIN("dlq-admin"),
  MIGRATE("migrate"),
  // The console's JSON API behind the HTTP API (decision 1770).
  CONSOLE_API("console-api");

  private final String id;

  PlatformFunction(String id) {
    this.id = id;
  }

  /** The function's name in configuration, in resource names and as the Quarkus handler name. */
  public String id() {
    return id;
  }

  public String handlerName() {
    return id;
  }

  /** The construct id, e.g. {@code GraphAdmin}, so logical ids read like the function's name. */
  public String constructId() {
    StringBuilder out = new StringBuilder();
    for (String word : id.split("-")) {
      out.append(Character.toUpperCase(word.charAt(0))).append(word.substring(1));
    }
    return out.toString();
  }

  public static Optional<PlatformFunction> byId(String id) {
    return Arrays.stream(values()).filter(f -> f.id.equals(id)).findFirst();
  }
}
