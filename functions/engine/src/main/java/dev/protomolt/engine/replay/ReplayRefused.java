package dev.protomolt.engine.replay;

/**
 * A replay request that cannot run, naming the field and the rule. Nothing was started: every
 * refusal is decided before the first candidate is read.
 */
public final class ReplayRefused extends IllegalArgumentException {

  private final String field;

  public ReplayRefused(String field, String rule) {
    super(field + ": " + rule);
    this.field = field;
  }

  /** The same refusal under the name the caller's request gives the field. */
  public ReplayRefused renamed(String newField) {
    return new ReplayRefused(newField, getMessage().substring(field.length() + 2));
  }

  /** The offending field, e.g. {@code graph_id} or {@code selectors.account_id}. */
  public String field() {
    return field;
  }
}
