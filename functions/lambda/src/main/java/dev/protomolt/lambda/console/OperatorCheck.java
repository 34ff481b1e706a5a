package dev.protomolt.lambda.console;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Who may use the console API: given the request's {@code requestContext}, the operator principal
 * it carries, or a refusal. In AWS the HTTP API authorizes every route with IAM (SigV4), so the
 * request context carries the caller's IAM identity; the local HTTP front stamps the same shape
 * after its own check. The check is an interface so an operator directory (per-account grants)
 * can replace the default without touching the routes.
 */
public interface OperatorCheck {

  /**
   * The principal the request was authorized as.
   *
   * @throws ConsoleRefusal with status 401 or 403 naming what is missing
   */
  String principal(JsonNode requestContext);

  /**
   * Any IAM-signed caller: in AWS the HTTP API's IAM authorization already decided, from the
   * caller's own policies, that it may invoke the route; the function still refuses a request
   * without an IAM identity, so a route deployed without authorization serves nobody.
   */
  static OperatorCheck iamSigned() {
    return requestContext -> iamCaller(requestContext);
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

  /**
   * An IAM principal (API Gateway's {@code authorizer.iam}) of the account the
   * console is deployed in. API Gateway has already checked the caller's {@code execute-api:Invoke}
   * permission; this refuses a request that reached the function without that identity (a route
   * deployed without IAM authorization) or from another account.
   */
  static OperatorCheck iamOfAccount(String accountId) {
    if (accountId == null || accountId.isBlank()) {
      throw new IllegalArgumentException("accountId: must name the console's AWS account");
    }
    return requestContext -> {
      String caller = iamCaller(requestContext);
      String callerAccount =
          requestContext.path("authorizer").path("iam").path("accountId").asText("");
      if (!accountId.equals(callerAccount)) {
        throw new ConsoleRefusal(
            403,
            "requestContext.authorizer.iam.accountId",
            "must be the console's account " + accountId + ", was '" + callerAccount + "'");
      }
      return caller;
    };
  }
}
