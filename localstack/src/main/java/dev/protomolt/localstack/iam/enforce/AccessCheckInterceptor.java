package dev.protomolt.localstack.iam.enforce;

import software.amazon.awssdk.awscore.AwsExecutionAttribute;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.regions.Region;

/**
 * The SDK's global execution interceptor for the local cloud, listed in this module's {@code
 * software/amazon/awssdk/global/handlers/execution.interceptors}. It runs after the request is
 * signed (the signature names the caller's access key) and before it is transmitted, so a denied
 * call is refused with nothing sent. See {@link IamEnforcement}.
 */
public final class AccessCheckInterceptor implements ExecutionInterceptor {

  @Override
  public void beforeTransmission(
      Context.BeforeTransmission context, ExecutionAttributes executionAttributes) {
    Region region = executionAttributes.getAttribute(AwsExecutionAttribute.AWS_REGION);
    IamEnforcement.check(
        context.request(),
        context.httpRequest(),
        executionAttributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME),
        region == null ? "us-east-1" : region.id());
  }
}
