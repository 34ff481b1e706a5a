package dev.protomolt.localstack.iam;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Who signs with one access key: a function or the gateway's task, the role it runs as, and that
 * role's policies (inline, attached and managed, all evaluated together as AWS does).
 *
 * @param name the function or task name, as log lines and AccessDenied messages name it
 * @param roleArn the role's ARN; the caller appears as {@code assumed-role/<role>/<name>}
 */
public record IamPrincipal(String name, String roleArn, List<PolicyDocument> policies) {

  public IamPrincipal {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("name: a principal needs a name (function or task name)");
    }
    Objects.requireNonNull(roleArn, "roleArn");
    policies = List.copyOf(policies);
  }

  /** The caller ARN AWS prints in an AccessDenied message for a role session. */
  public String callerArn() {
    String[] parts = roleArn.split(":", 6);
    if (parts.length == 6 && parts[5].startsWith("role/")) {
      String role = parts[5].substring(parts[5].lastIndexOf('/') + 1);
      return "arn:" + parts[1] + ":sts::" + parts[4] + ":assumed-role/" + role + "/" + name;
    }
    return roleArn;
  }

  public AccessDecision evaluate(AccessRequest request) {
    AccessRequest withPrincipal = request;
    if (request.contextValue("aws:PrincipalArn") == null) {
      Map<String, String> context = new HashMap<>(request.context());
      context.put("aws:principalarn", roleArn);
      withPrincipal = new AccessRequest(request.action(), request.resource(), context);
    }
    return PolicyEvaluator.evaluate(policies, withPrincipal);
  }
}
