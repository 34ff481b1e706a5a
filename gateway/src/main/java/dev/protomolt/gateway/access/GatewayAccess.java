package dev.protomolt.gateway.access;

import com.google.protobuf.Message;
import dev.protomolt.identity.CallerToken;
import dev.protomolt.proto.module.v1.WorkRequest;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.time.Duration;
import java.util.Set;

/**
 * The gateway's one door keeper, in front of every service on its port. Every call must carry a
 * caller token STS verifies ({@code UNAUTHENTICATED} otherwise); then each request message is
 * checked against what that principal may do before the service sees it:
 *
 * <ul>
 *   <li>{@code ModuleWorkService}: a {@code Hello} for a module the principal may serve;
 *   <li>{@code IndexPlanService}: a module principal (sinks declare their plans) or a platform
 *       operator;
 *   <li>every other service (the operator doors): an operator allowed every account the request
 *       names, or a platform operator ({@code *}) when it names none.
 * </ul>
 *
 * A principal past its budget of operator-door calls ({@link PrincipalRateLimit}) is refused
 * with {@code RESOURCE_EXHAUSTED} before any message is read.
 *
 * <p>A refused message closes the call with {@code PERMISSION_DENIED} and is never delivered, so the
 * service reads and writes nothing. The status and message depend only on the caller and the
 * request, never on what the store holds.
 */
public final class GatewayAccess implements ServerInterceptor {

  /** The verified caller of the current call, for services that want to log it. */
  public static final Context.Key<VerifiedCaller> CALLER = Context.key("protomolt-caller");

  private static final String WORK_SERVICE = "protomolt.module.v1.ModuleWorkService";
  private static final String INDEX_PLAN_SERVICE = "protomolt.engine.v1.IndexPlanService";

  private final CallerIdentities identities;
  private final GatewayPrincipals principals;
  private final PrincipalRateLimit operatorRate;

  /**
   * @param operatorRate each principal's budget of calls on the operator doors (every service but
   *     module work and index plans), counted per call before any message is delivered
   */
  public GatewayAccess(
      CallerIdentities identities, GatewayPrincipals principals, PrincipalRateLimit operatorRate) {
    this.identities = identities;
    this.principals = principals;
    this.operatorRate = operatorRate;
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    VerifiedCaller caller;
    try {
      caller = identities.verify(headers.get(CallerToken.METADATA_KEY));
    } catch (CallerRefusedException e) {
      call.close(e.status(), new Metadata());
      return new ServerCall.Listener<>() {};
    }
    String service = call.getMethodDescriptor().getServiceName();
    String method = call.getMethodDescriptor().getFullMethodName();
    if (!WORK_SERVICE.equals(service) && !INDEX_PLAN_SERVICE.equals(service)) {
      // Module work is paced by its own demand pull; the operator doors read and write the store
      // on every call, so one principal may not make this task do more than its budget.
      Status over = overRate(caller);
      if (over != null) {
        call.close(over, new Metadata());
        return new ServerCall.Listener<>() {};
      }
    }
    ServerCall.Listener<Q> delegate =
        Contexts.interceptCall(Context.current().withValue(CALLER, caller), call, headers, next);
    return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(delegate) {
      private boolean refused;

      @Override
      public void onMessage(Q message) {
        if (refused) {
          return;
        }
        Status denied = check(caller, service, method, message);
        if (denied != null) {
          refused = true;
          call.close(denied, new Metadata());
          return;
        }
        super.onMessage(message);
      }

      @Override
      public void onHalfClose() {
        if (!refused) {
          super.onHalfClose();
        }
      }
    };
  }

  /**
   * The caller an {@code authorization} value names, as every call on the port is checked; the
   * admin HTTP port's diagnostics shell presents its {@code Authorization} header here.
   *
   * @throws CallerRefusedException {@code UNAUTHENTICATED} or {@code UNAVAILABLE}, as for a call
   */
  public VerifiedCaller verify(String authorization) throws CallerRefusedException {
    return identities.verify(authorization);
  }

  /**
   * Null when {@code caller} may send {@code request} to the operator door method {@code
   * fullMethodName} now, else the refusal a call would get: {@code RESOURCE_EXHAUSTED} past its
   * rate, {@code PERMISSION_DENIED} for an account it may not act on. The same rule as the gRPC
   * doors, so the diagnostics shell over HTTP admits exactly whom the gRPC door admits.
   */
  public Status operatorRefusal(VerifiedCaller caller, String fullMethodName, Message request) {
    Status over = overRate(caller);
    return over != null ? over : check(caller, "", fullMethodName, request);
  }

  private Status overRate(VerifiedCaller caller) {
    Duration wait = operatorRate.take(caller.principal());
    if (wait.isZero()) {
      return null;
    }
    return Status.RESOURCE_EXHAUSTED.withDescription(
        caller.principal()
            + " is over its rate limit on the gateway's operator doors ("
            + rate(operatorRate.callsPerSecond())
            + " calls per second, bursts of "
            + operatorRate.burst()
            + "); retry in "
            + Math.max(1, wait.toMillis())
            + " ms");
  }

  private static String rate(double perSecond) {
    return perSecond == Math.rint(perSecond)
        ? Long.toString((long) perSecond)
        : Double.toString(perSecond);
  }

  /** Null when {@code caller} may send {@code message}, else the refusal. */
  private Status check(VerifiedCaller caller, String service, String method, Object message) {
    if (WORK_SERVICE.equals(service)) {
      if (message instanceof WorkRequest request && request.hasHello()) {
        String module = request.getHello().getModuleId();
        if (!principals.mayServe(caller, module)) {
          return Status.PERMISSION_DENIED.withDescription(
              caller.principal() + " may not serve module '" + module + "'");
        }
      }
      return null;
    }
    if (INDEX_PLAN_SERVICE.equals(service)) {
      return principals.isModule(caller) || principals.isPlatformOperator(caller)
          ? null
          : Status.PERMISSION_DENIED.withDescription(
              caller.principal()
                  + " may not call "
                  + method
                  + ": it is neither a module nor a"
                  + " platform operator");
    }
    Set<String> accounts = RequestAccounts.of(message);
    if (accounts.isEmpty()) {
      return principals.isPlatformOperator(caller)
          ? null
          : Status.PERMISSION_DENIED.withDescription(
              caller.principal()
                  + " may not call "
                  + method
                  + " with no account named: that needs an operator of every account (*)");
    }
    for (String account : accounts) {
      if (!principals.mayActOn(caller, account)) {
        return Status.PERMISSION_DENIED.withDescription(
            caller.principal() + " may not act on account '" + account + "'");
      }
    }
    return null;
  }
}
