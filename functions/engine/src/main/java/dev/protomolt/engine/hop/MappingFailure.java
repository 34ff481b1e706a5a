package dev.protomolt.engine.hop;

/**
 * A pre- or post-mapping of a node failed: dead-lettered.
 * Its fully-qualified class name is the Lambda errorType Step Functions sees
 * ({@code dev.protomolt.statemachines.ErrorNames#MAPPING_FAILED}).
 */
public final class MappingFailure extends HopFailure {

  public MappingFailure(String message) {
    super(message, null);
  }

  public MappingFailure(String message, Throwable cause) {
    super(message, cause);
  }
}
