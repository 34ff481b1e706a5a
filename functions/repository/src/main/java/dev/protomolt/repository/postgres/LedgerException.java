package dev.protomolt.repository.postgres;

/** The ledger database refused or failed a statement; the message says which row and why. */
public final class LedgerException extends RuntimeException {

  public LedgerException(String message, Throwable cause) {
    super(message + ": " + cause.getMessage(), cause);
  }
}
