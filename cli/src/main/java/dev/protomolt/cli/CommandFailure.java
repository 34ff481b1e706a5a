package dev.protomolt.cli;

/**
 * A command could not do what was asked. The message says what went wrong and what to do about it;
 * {@link Main} prints it alone (no stack trace) and exits with {@link #exitCode()}.
 */
final class CommandFailure extends RuntimeException {

  /** Exit status for a refused input (a bad file, an unknown graph or document). */
  static final int REFUSED = 1;

  /** Exit status when the local platform is not running or not reachable. */
  static final int UNREACHABLE = 3;

  private final int exitCode;

  CommandFailure(int exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  static CommandFailure refused(String message) {
    return new CommandFailure(REFUSED, message);
  }

  int exitCode() {
    return exitCode;
  }
}
