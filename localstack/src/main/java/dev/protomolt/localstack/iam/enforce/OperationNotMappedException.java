package dev.protomolt.localstack.iam.enforce;

/**
 * An operation a registered principal called that the local cloud cannot translate to the IAM
 * actions and resources AWS would check. Such a call is refused rather than let through, so a
 * missing mapping shows up the first time code uses the operation.
 */
final class OperationNotMappedException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  OperationNotMappedException(String service, String operation, String mappingClass) {
    super(
        service
            + " "
            + operation
            + " is not mapped to IAM actions by the local cloud; add it to "
            + mappingClass);
  }
}
