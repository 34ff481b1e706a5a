package dev.protomolt.engine.deadletters;

/** A dead-letter request refused before anything was read or started, naming the field. */
public final class DeadLetterRefused extends IllegalArgumentException {

  private final String field;

  public DeadLetterRefused(String field, String rule) {
    super(field + ": " + rule);
    this.field = field;
  }

  public String field() {
    return field;
  }
}
