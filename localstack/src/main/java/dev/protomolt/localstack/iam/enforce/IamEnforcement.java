package dev.protomolt.localstack.iam.enforce;

import dev.protomolt.localstack.iam.AccessDecision;
import dev.protomolt.localstack.iam.AccessRequest;
import dev.protomolt.localstack.iam.IamPrincipal;
import dev.protomolt.localstack.iam.PrincipalRegistry;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import java.util.logging.Logger;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbRequest;
import software.amazon.awssdk.services.kms.model.KmsRequest;
import software.amazon.awssdk.services.lambda.model.LambdaRequest;
import software.amazon.awssdk.services.s3.model.S3Request;
import software.amazon.awssdk.services.sfn.model.SfnRequest;

/**
 * Where the local cloud's IAM meets the AWS SDK. {@link AccessCheckInterceptor}, which the SDK
 * loads into every client built on a classpath that carries this module, asks {@link #check}
 * about each S3, Step Functions, DynamoDB and Lambda call just before it is sent; a denied call
 * throws the service's AccessDenied error there, so nothing reaches the server (decision 1580).
 *
 * <p>Nothing is checked until a local cloud {@link #install installs} a registry: on any other
 * classpath, or before {@code up} deploys a template, the interceptor does nothing.
 */
public final class IamEnforcement {

  private static final Logger LOG = Logger.getLogger(IamEnforcement.class.getName());
  private static final List<PrincipalRegistry> REGISTRIES = new CopyOnWriteArrayList<>();

  private IamEnforcement() {}

  /** An installed registry; closing it stops its checks. */
  public static final class Installation implements AutoCloseable {
    private final PrincipalRegistry registry;

    private Installation(PrincipalRegistry registry) {
      this.registry = registry;
    }

    @Override
    public void close() {
      REGISTRIES.remove(registry);
    }
  }

  /**
   * Checks every SDK call in this JVM signed with a key {@code registry} knows, until the
   * returned installation is closed. Several registries may be installed at once (one per local
   * cloud); keys are looked up in each.
   */
  public static Installation install(PrincipalRegistry registry) {
    // Newest first: clouds deploying the same stack derive the same function keys, and a cloud
    // left running (a test that never closed it) must not answer for the one just started.
    REGISTRIES.addFirst(registry);
    return new Installation(registry);
  }

  /**
   * @param region the region the client signs for
   * @throws software.amazon.awssdk.awscore.exception.AwsServiceException the service's
   *     AccessDenied error when the caller may not make this call
   */
  static void check(SdkRequest request, SdkHttpRequest http, String operation, String region) {
    if (REGISTRIES.isEmpty() || !checkedService(request)) {
      return;
    }
    String accessKeyId = SigningKey.accessKeyId(http);
    Optional<Caller> found = caller(accessKeyId);
    if (found.isEmpty()) {
      if (REGISTRIES.stream().anyMatch(PrincipalRegistry::strict)) {
        String message =
            "The access key "
                + (accessKeyId == null ? "(none: unsigned request)" : accessKeyId)
                + " is not registered with the local cloud's IAM, which is strict; "
                + operation
                + " refused";
        LOG.warning("IAM denied an unregistered caller: " + message);
        throw AccessDenials.of(request, message);
      }
      return;
    }
    IamPrincipal caller = found.get().principal();
    List<AccessRequest> asked;
    try {
      asked = actions(request, operation, region, found.get().registry().accountId());
    } catch (OperationNotMappedException e) {
      LOG.warning("IAM refused " + caller.name() + ": " + e.getMessage());
      throw AccessDenials.of(request, e.getMessage());
    }
    for (AccessRequest access : asked) {
      AccessDecision decision = caller.evaluate(access);
      if (!decision.allowed()) {
        String message =
            "User: "
                + caller.callerArn()
                + " is not authorized to perform: "
                + access.action()
                + " on resource: \""
                + access.resource()
                + "\" "
                + decision.reason();
        LOG.warning(
            "IAM denied "
                + caller.name()
                + ": "
                + access.action()
                + " on "
                + access.resource()
                + " ("
                + operation
                + ") "
                + decision.reason());
        throw AccessDenials.of(request, message);
      }
      if (LOG.isLoggable(Level.FINE)) {
        LOG.fine(
            "IAM allowed " + caller.name() + ": " + access.action() + " on " + access.resource());
      }
    }
  }

  /** A registered principal and the registry (so the account) it belongs to. */
  record Caller(IamPrincipal principal, PrincipalRegistry registry) {}

  /** The principal signing with {@code accessKeyId} in the newest installed registry knowing it. */
  static Optional<Caller> caller(String accessKeyId) {
    for (PrincipalRegistry registry : REGISTRIES) {
      Optional<IamPrincipal> principal = registry.principal(accessKeyId);
      if (principal.isPresent()) {
        return Optional.of(new Caller(principal.get(), registry));
      }
    }
    return Optional.empty();
  }

  static boolean active() {
    return !REGISTRIES.isEmpty();
  }

  private static boolean checkedService(SdkRequest request) {
    return request instanceof S3Request
        || request instanceof SfnRequest
        || request instanceof DynamoDbRequest
        || request instanceof LambdaRequest
        || request instanceof KmsRequest;
  }

  /** The IAM questions AWS would ask for this call; exposed to the package's tests. */
  static List<AccessRequest> actions(
      SdkRequest request, String operation, String region, String account) {
    return switch (request) {
      case S3Request r -> S3Actions.of(r);
      case SfnRequest r -> StepFunctionsActions.of(r, region, account);
      case DynamoDbRequest r -> DynamoDbActions.of(r, operation, region, account);
      case LambdaRequest r -> LambdaActions.of(r, operation, region, account);
      case KmsRequest r -> KmsActions.of(r, operation, region, account);
      default -> List.of();
    };
  }
}
