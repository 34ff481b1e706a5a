package dev.protomolt.gateway;

import java.util.Objects;

/** What screening decided about one dispatch: serve it to a module, or drain it unserved. */
public sealed interface ScreenVerdict {

  ScreenVerdict SERVE = new Serve();

  /** The record goes to the module that said Hello. */
  record Serve() implements ScreenVerdict {}

  /**
   * The record is settled without reaching a module, because nothing would accept its result.
   *
   * @param reason a short stable name for counting (e.g. {@code token-expired})
   * @param detail what was found, for the log
   */
  record Drain(String reason, String detail) implements ScreenVerdict {
    public Drain {
      Objects.requireNonNull(reason, "reason");
      detail = detail == null ? "" : detail;
    }
  }
}
