package dev.protomolt.core.cel;

/** Whether a mapping runs before the module (pre) or after it (post). */
public enum MappingPhase {
  PRE("pre"),
  POST("post");

  private final String label;

  MappingPhase(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }
}
