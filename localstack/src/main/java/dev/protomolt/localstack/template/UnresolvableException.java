package dev.protomolt.localstack.template;

/** An intrinsic function the local cloud cannot resolve; the path says where in the resource. */
final class UnresolvableException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String path;

  UnresolvableException(String path, String message) {
    super(message);
    this.path = path;
  }

  String path() {
    return path;
  }
}
