package dev.protomolt.localstack.iam.enforce;

import dev.protomolt.localstack.iam.AccessRequest;
import java.util.List;
import software.amazon.awssdk.services.lambda.model.InvokeRequest;
import software.amazon.awssdk.services.lambda.model.LambdaRequest;
import software.amazon.awssdk.services.lambda.model.ListFunctionsRequest;

/**
 * Lambda operations as Lambda authorizes them: {@code Invoke} is {@code lambda:InvokeFunction};
 * every operation on a function is checked on its ARN, qualified when the call names a version or
 * alias (so a policy must name {@code function:<name>:*}, or the qualifier, to cover it, as in
 * AWS); {@code ListFunctions} is on {@code *}.
 */
final class LambdaActions {

  private LambdaActions() {}

  static List<AccessRequest> of(
      LambdaRequest request, String operation, String region, String account) {
    if (request instanceof ListFunctionsRequest) {
      return List.of(AccessRequest.of("lambda:ListFunctions", "*"));
    }
    String functionName = request.getValueForField("FunctionName", String.class).orElse(null);
    if (functionName == null) {
      throw new OperationNotMappedException("Lambda", operation, LambdaActions.class.getName());
    }
    String action =
        request instanceof InvokeRequest ? "lambda:InvokeFunction" : "lambda:" + operation;
    String qualifier = request.getValueForField("Qualifier", String.class).orElse(null);
    return List.of(AccessRequest.of(action, functionArn(functionName, qualifier, region, account)));
  }

  /** Lambda accepts a name, {@code name:qualifier}, a partial ARN or a full ARN. */
  static String functionArn(String function, String qualifier, String region, String account) {
    String arn;
    if (function.startsWith("arn:")) {
      arn = function;
    } else if (function.contains(":function:")) {
      arn = "arn:aws:lambda:" + region + ":" + function;
    } else {
      arn = "arn:aws:lambda:" + region + ":" + account + ":function:" + function;
    }
    boolean qualified = arn.split(":").length >= 8;
    return qualifier == null || qualified ? arn : arn + ":" + qualifier;
  }
}
