package dev.protomolt.localstack.cloud;

import java.net.URI;

/**
 * A running local Step Functions service, as the local cloud holds it. The local runtime
 * ({@code dev.protomolt.localstack.sfn.LocalStepFunctions}) plugs in through a
 * {@link StepFunctionsLauncher}; the local cloud stops it before the components it depends on.
 */
public interface StepFunctionsRuntime extends AutoCloseable {

  /** The base URL the AWS SDK's {@code SfnClient} and the AWS CLI are pointed at. */
  URI endpoint();

  @Override
  void close();
}
