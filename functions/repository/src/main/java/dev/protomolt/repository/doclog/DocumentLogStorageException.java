package dev.protomolt.repository.doclog;

/** PostgreSQL failed a document-log call; the message names the call and the log. */
public final class DocumentLogStorageException extends RuntimeException {

  DocumentLogStorageException(String what, Throwable cause) {
    super(what + ": " + cause.getMessage(), cause);
  }
}
