package dev.protomolt.lambda.console;

import com.fasterxml.jackson.databind.JsonNode;
import dev.protomolt.identity.OperatorGrants;
import java.util.Collection;
import java.util.Objects;

/**
 * Who may use the console API. {@link #principal} reads the operator principal from the request's
 * {@code requestContext} (in AWS the HTTP API authorizes every route with IAM, so it carries the
 * caller's IAM identity; the local HTTP front stamps the same shape after its own check), and
 * {@link #authorize} holds that principal to the operator grants the gateway's operator doors use
 * (decision 1741): an operator of every account a request names, or of every account ({@code *})
 * when it names none.
 */
public interface OperatorCheck {

  /**
   * The principal the request was authorized as.
   *
   * @throws ConsoleRefusal with status 401 naming what is missing
   */
  String principal(JsonNode requestContext);

  /**
   * Refuses with 403 a {@code principal} not granted every account in {@code accounts}, or, when
   * {@code accounts} is empty (a platform-wide route: graphs, deploy, drafts, redrive), one that is
   * not an operator of every account. The refusal is the same whatever was asked, so it says
   * nothing about what exists.
   */
  void authorize(String principal, Collection<String> accounts);

  /** The refusal {@link #authorize} throws: one text for every refused request. */
  static ConsoleRefusal notGranted() {
    return new ConsoleRefusal(
        403, "principal", "is not granted this request (decision 1741: operator grants)");
  }

  /**
   * IAM-signed callers held to {@code grants}: in AWS the HTTP API's IAM authorization already
   * decided, from the caller's own policies, that it may invoke the route; the function still
   * refuses a request without an IAM identity (so a route deployed without authorization serves
   * nobody) and a principal the grants do not name. A role session is its role, as at the
   * gateway, so every session of a console sign-in role is that role.
   */
  static OperatorCheck iamSigned(OperatorGrants grants) {
    Objects.requireNonNull(grants, "grants");
    return new OperatorCheck() {
      @Override
      public String principal(JsonNode requestContext) {
        return iamCaller(requestContext);
      }

      @Override
      public void authorize(String principal, Collection<String> accounts) {
        String granted;
        try {
          granted = OperatorGrants.principalOf(principal);
        } catch (IllegalArgumentException notARoleOrUser) {
          throw notGranted();
        }
        boolean allowed =
            accounts.isEmpty()
                ? grants.isPlatformOperator(granted)
                : accounts.stream().allMatch(a -> grants.mayActOn(granted, a));
        if (!allowed) {
          throw notGranted();
        }
      }
    };
  }

  private static String iamCaller(JsonNode requestContext) {
    String caller = requestContext.path("authorizer").path("iam").path("userArn").asText("");
    if (caller.isBlank()) {
      throw new ConsoleRefusal(
          401,
          "requestContext.authorizer.iam",
          "must carry the caller's IAM identity: the console API serves only IAM-signed"
              + " requests");
    }
    return caller;
  }
}
