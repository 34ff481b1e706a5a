package dev.protomolt.localstack.sfn;

/**
 * An API error as Step Functions returns it over AWS JSON 1.0: the error name ({@code __type},
 * e.g. {@code ExecutionAlreadyExists}) and a message.
 */
public final class SfnApiException extends RuntimeException {

  private final String type;

  public SfnApiException(String type, String message) {
    super(message);
    this.type = type;
  }

  public String type() {
    return type;
  }
}
