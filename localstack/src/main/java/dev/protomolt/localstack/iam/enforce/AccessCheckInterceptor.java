package dev.protomolt.localstack.iam.enforce;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import software.amazon.awssdk.awscore.AwsExecutionAttribute;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.core.interceptor.SdkInternalExecutionAttribute;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.identity.spi.IdentityProvider;
import software.amazon.awssdk.identity.spi.IdentityProviders;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.model.DeleteObjectsRequest;

/**
 * The SDK's global execution interceptor for the local cloud, listed in this module's {@code
 * software/amazon/awssdk/global/handlers/execution.interceptors}. It runs after the request is
 * signed (the signature names the caller's access key) and before it is transmitted, so a denied
 * call is refused with nothing sent. See {@link IamEnforcement}.
 *
 * <p>DeleteObjects is decided key by key before marshalling instead ({@link MultiObjectDelete}),
 * from the credentials the call will be signed with, since S3 answers it per key.
 */
public final class AccessCheckInterceptor implements ExecutionInterceptor {

  @Override
  public SdkRequest modifyRequest(
      Context.ModifyRequest context, ExecutionAttributes executionAttributes) {
    if (IamEnforcement.active() && context.request() instanceof DeleteObjectsRequest delete) {
      String accessKeyId = resolvedAccessKey(delete, executionAttributes);
      if (accessKeyId != null) {
        return MultiObjectDelete.screen(delete, accessKeyId, executionAttributes);
      }
    }
    return context.request();
  }

  @Override
  public void beforeTransmission(
      Context.BeforeTransmission context, ExecutionAttributes executionAttributes) {
    if (executionAttributes.getAttribute(MultiObjectDelete.REFUSED) != null) {
      return;
    }
    Region region = executionAttributes.getAttribute(AwsExecutionAttribute.AWS_REGION);
    IamEnforcement.check(
        context.request(),
        context.httpRequest(),
        executionAttributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME),
        region == null ? "us-east-1" : region.id());
  }

  @Override
  public SdkResponse modifyResponse(
      Context.ModifyResponse context, ExecutionAttributes executionAttributes) {
    return MultiObjectDelete.report(context.response(), executionAttributes);
  }

  /**
   * The access key of the credentials this call will be signed with: the request's own
   * credentials override, else the client's provider (which the SDK keeps in an attribute marked
   * internal; the signature is not there yet at this stage). When neither can be read the call
   * falls back to the whole-call check on the signed request, which refuses a DeleteObjects with
   * any denied key outright.
   */
  private static String resolvedAccessKey(
      DeleteObjectsRequest request, ExecutionAttributes attributes) {
    IdentityProvider<? extends AwsCredentialsIdentity> provider =
        request
            .overrideConfiguration()
            .flatMap(AwsRequestOverrideConfiguration::credentialsIdentityProvider)
            .orElse(null);
    if (provider == null) {
      IdentityProviders providers =
          attributes.getAttribute(SdkInternalExecutionAttribute.IDENTITY_PROVIDERS);
      provider =
          providers == null ? null : providers.identityProvider(AwsCredentialsIdentity.class);
    }
    if (provider == null) {
      return null;
    }
    try {
      return provider.resolveIdentity().join().accessKeyId();
    } catch (CompletionException | CancellationException e) {
      // The SDK reports failed credential resolution itself, later in the same call.
      return null;
    }
  }
}
